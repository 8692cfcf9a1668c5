CREATE TABLE "seller_user_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "seller_users" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"email_verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "user_id" text;--> statement-breakpoint
ALTER TABLE "seller_user_tokens" ADD CONSTRAINT "seller_user_tokens_user_id_seller_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."seller_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_users" ADD CONSTRAINT "seller_users_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "seller_user_tokens_hash_unique" ON "seller_user_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "seller_user_tokens_user_idx" ON "seller_user_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "seller_users_email_unique" ON "seller_users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "seller_users_merchant_idx" ON "seller_users" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "auth_sessions_user_idx" ON "auth_sessions" USING btree ("user_id");--> statement-breakpoint
-- Every existing seller account's login becomes its Owner (same email and password hash), and its
-- open console sessions become that Owner's. Emails were never verified, so they stay unverified.
INSERT INTO "seller_users" ("id", "merchant_id", "email", "name", "role", "password_hash", "created_at", "updated_at")
SELECT 'usr_' || substring("id" from 5), "id", "email", "name", 'Owner', "password_hash", "created_at", "updated_at" FROM "merchants";--> statement-breakpoint
UPDATE "auth_sessions" SET "user_id" = 'usr_' || substring("subject_id" from 5) WHERE "audience" = 'merchant';--> statement-breakpoint
ALTER TABLE "merchants" DROP COLUMN "password_hash";