ALTER TABLE "test_clocks" ADD COLUMN "status" text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "test_clocks" ADD COLUMN "advance_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "subscriptions_test_clock_idx" ON "subscriptions" USING btree ("test_clock_id","next_action_at") WHERE "subscriptions"."test_clock_id" is not null;--> statement-breakpoint
CREATE INDEX "test_clocks_advancing_idx" ON "test_clocks" USING btree ("advance_lease_until") WHERE "test_clocks"."status" = 'advancing';