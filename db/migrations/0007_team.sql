CREATE TABLE "seller_invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "support_refund_limit" bigint;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "support_refund_limit_currency" text;--> statement-breakpoint
ALTER TABLE "seller_invitations" ADD CONSTRAINT "seller_invitations_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_invitations" ADD CONSTRAINT "seller_invitations_invited_by_user_id_seller_users_id_fk" FOREIGN KEY ("invited_by_user_id") REFERENCES "public"."seller_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "seller_invitations_hash_unique" ON "seller_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "seller_invitations_merchant_idx" ON "seller_invitations" USING btree ("merchant_id","email");