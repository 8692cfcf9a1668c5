ALTER TABLE "subscriptions" ADD COLUMN "renewal_draft" jsonb;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "usage_billing_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "usage_threshold_amount" integer;