ALTER TABLE "payments" ADD COLUMN "recovery_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "review" jsonb;--> statement-breakpoint
CREATE INDEX "payments_needs_review_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'needs_review';--> statement-breakpoint
-- One-time checkouts written before money moves pinned a plan carry all their plan needs: rewritten in the new shape (docs/payments.md, "Money moves").
UPDATE "payments" SET "intent" = jsonb_build_object('kind', 'checkout', 'plan', jsonb_build_object('savePaymentMethod', coalesce(("intent"->>'savePaymentMethod')::boolean, false), 'card', null)) WHERE "intent"->>'kind' = 'checkout' AND NOT ("intent" ? 'plan');
