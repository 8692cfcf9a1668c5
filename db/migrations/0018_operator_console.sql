CREATE TABLE "audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"actor_label" text,
	"action" text NOT NULL,
	"target_kind" text,
	"target_id" text,
	"ip" text,
	"request_id" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_log_merchant_created_idx" ON "audit_log" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_action_created_idx" ON "audit_log" USING btree ("action","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_created_idx" ON "audit_log" USING btree ("actor_id","created_at" DESC NULLS LAST) WHERE "audit_log"."actor_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_log_actor_label_idx" ON "audit_log" USING btree (lower("actor_label"),"created_at" DESC NULLS LAST) WHERE "audit_log"."actor_label" is not null;--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_id","created_at" DESC NULLS LAST) WHERE "audit_log"."target_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_created_idx" ON "payments" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payments_unknown_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'unknown';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_dead_idx" ON "webhook_deliveries" USING btree ("created_at") WHERE "webhook_deliveries"."status" = 'dead';--> statement-breakpoint
CREATE INDEX "webhook_endpoints_unhealthy_idx" ON "webhook_endpoints" USING btree ("merchant_id") WHERE "webhook_endpoints"."enabled" = false or "webhook_endpoints"."failing_since" is not null;