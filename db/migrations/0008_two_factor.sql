CREATE TABLE "seller_recovery_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "require_two_factor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "seller_user_tokens" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "seller_users" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "seller_users" ADD COLUMN "totp_pending_secret" text;--> statement-breakpoint
ALTER TABLE "seller_users" ADD COLUMN "totp_last_step" integer;--> statement-breakpoint
ALTER TABLE "seller_users" ADD COLUMN "two_factor_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "seller_recovery_codes" ADD CONSTRAINT "seller_recovery_codes_user_id_seller_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."seller_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "seller_recovery_codes_user_idx" ON "seller_recovery_codes" USING btree ("user_id","code_hash");