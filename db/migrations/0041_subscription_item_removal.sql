DROP INDEX "subscription_items_price_unique";--> statement-breakpoint
ALTER TABLE "subscription_items" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_items_live_price_unique" ON "subscription_items" USING btree ("subscription_id","price_id") WHERE "subscription_items"."removed_at" is null;