CREATE TABLE "sandbox_processor_operations" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"reference" text NOT NULL,
	"decline_code" text,
	"message" text,
	"requests" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "processor_token" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "processor_key" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "intent" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_processor_key_unique" ON "payments" USING btree ("processor_key");--> statement-breakpoint
CREATE INDEX "payments_pending_idx" ON "payments" USING btree ("updated_at") WHERE "payments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "refunds_requested_idx" ON "refunds" USING btree ("updated_at") WHERE "refunds"."status" = 'requested';