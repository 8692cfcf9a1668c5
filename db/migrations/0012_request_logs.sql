CREATE TABLE "api_request_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "api_request_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" text NOT NULL,
	"request_id" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"api_key_id" text,
	"idempotency_key" text,
	"replayed" boolean DEFAULT false NOT NULL,
	"request_body" text,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "api_request_logs_merchant_created_idx" ON "api_request_logs" USING btree ("merchant_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "api_request_logs_merchant_failed_idx" ON "api_request_logs" USING btree ("merchant_id","created_at" DESC NULLS LAST) WHERE "api_request_logs"."status" >= 400;--> statement-breakpoint
CREATE UNIQUE INDEX "api_request_logs_request_id_unique" ON "api_request_logs" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "api_request_logs_created_idx" ON "api_request_logs" USING btree ("created_at");