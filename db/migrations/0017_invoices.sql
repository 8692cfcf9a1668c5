ALTER TABLE "merchants" ADD COLUMN "send_receipts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "subtotal" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "credits_applied" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "line_items" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "subscription_id" text;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "period_index" integer;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "period_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "attempt_payment_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "hosted_token" text DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "receipt_email_id" text;--> statement-breakpoint
CREATE INDEX "billing_records_subscription_idx" ON "billing_records" USING btree ("subscription_id","created_at") WHERE "billing_records"."subscription_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_records_hosted_token_unique" ON "billing_records" USING btree ("hosted_token");--> statement-breakpoint
-- Hand-written backfill of the records written before invoices (kept last in this file).
-- A subscription's records: the subscription and, for a period, its bounds (the current period's
-- from the subscription, earlier ones from the billing anchor and today's price interval, as
-- lib/subscriptions/periods.ts computes them in UTC).
UPDATE "billing_records" br SET
  "subscription_id" = l."subscription_id",
  "period_index" = l."period_index",
  "period_start" = CASE WHEN l."period_index" IS NULL THEN NULL
    WHEN l."period_index" = s."current_period_index" THEN s."current_period_start"
    ELSE (s."billing_anchor" AT TIME ZONE 'UTC' + (COALESCE(p."interval_count", 1) * l."period_index") * ('1 ' || p."interval")::interval) AT TIME ZONE 'UTC' END,
  "period_end" = CASE WHEN l."period_index" IS NULL THEN NULL
    WHEN l."period_index" = s."current_period_index" THEN s."current_period_end"
    ELSE (s."billing_anchor" AT TIME ZONE 'UTC' + (COALESCE(p."interval_count", 1) * (l."period_index" + 1)) * ('1 ' || p."interval")::interval) AT TIME ZONE 'UTC' END,
  "attempt_payment_ids" = COALESCE((
    SELECT array_agg(pay."id" ORDER BY pay."created_at", pay."id") FROM "payments" pay
    WHERE pay."id" = br."payment_id"
       OR pay."processor_key" = s."id" || ':p' || l."period_index" || ':a1'
       OR pay."processor_key" LIKE s."id" || ':' || l."id" || ':a%'
  ), '{}')
FROM "subscription_billing_records" l
JOIN "subscriptions" s ON s."id" = l."subscription_id"
JOIN "prices" p ON p."id" = s."price_id"
WHERE l."billing_record_id" = br."id";--> statement-breakpoint
UPDATE "billing_records" SET "attempt_payment_ids" = ARRAY["payment_id"]
WHERE "subscription_id" IS NULL AND "payment_id" IS NOT NULL;--> statement-breakpoint
-- Totals and lines: what was charged plus the coupon's discount (the credit a period used was
-- not kept before, so old records show it inside their one line and creditsApplied 0).
UPDATE "billing_records" br SET
  "subtotal" = br."amount" + br."discount_amount",
  "line_items" = jsonb_build_array(jsonb_build_object(
      'kind', CASE WHEN l."kind" = 'period' THEN 'plan' WHEN l."kind" = 'proration' THEN 'proration' ELSE 'one_time' END,
      'description', COALESCE(c."description", br."description"),
      'priceId', c."price_id",
      'quantity', CASE WHEN c."id" IS NOT NULL AND c."quantity" * c."unit_amount" = br."amount" + br."discount_amount" THEN c."quantity" ELSE 1 END,
      'unitAmount', CASE WHEN c."id" IS NOT NULL AND c."quantity" * c."unit_amount" = br."amount" + br."discount_amount" THEN c."unit_amount" ELSE br."amount" + br."discount_amount" END,
      'amount', br."amount" + br."discount_amount"))
    || CASE WHEN br."discount_amount" > 0 THEN jsonb_build_array(jsonb_build_object(
      'kind', 'discount', 'description', 'Discount', 'priceId', NULL, 'quantity', 1,
      'unitAmount', -br."discount_amount", 'amount', -br."discount_amount")) ELSE '[]'::jsonb END
FROM "billing_records" b0
LEFT JOIN "subscription_billing_records" l ON l."billing_record_id" = b0."id"
LEFT JOIN "checkouts" c ON c."id" = b0."checkout_id" AND l."id" IS NULL
WHERE b0."id" = br."id";
