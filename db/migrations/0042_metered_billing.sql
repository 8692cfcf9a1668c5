CREATE TABLE "subscription_items" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"price_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "usage_type" text DEFAULT 'licensed' NOT NULL;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "feature" text;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "aggregation" text;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "aggregation_property" text;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "unit_amount_decimal" text;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "tiers" jsonb;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "tiers_mode" text;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "package_size" integer;--> statement-breakpoint
ALTER TABLE "subscription_items" ADD CONSTRAINT "subscription_items_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_items" ADD CONSTRAINT "subscription_items_price_id_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_items_live_price_unique" ON "subscription_items" USING btree ("subscription_id","price_id") WHERE "subscription_items"."removed_at" is null;