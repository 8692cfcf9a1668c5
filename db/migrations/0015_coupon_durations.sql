ALTER TABLE "billing_records" ADD COLUMN "discount_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "coupon_id" text;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "subscription_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "discount" jsonb;--> statement-breakpoint
ALTER TABLE "billing_records" ADD CONSTRAINT "billing_records_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;