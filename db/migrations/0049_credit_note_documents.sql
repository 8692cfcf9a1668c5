-- The hosted credit note page and PDF (/credit-note/{token}): a secret token per credit note, as
-- billing records' hosted_token. Existing credit notes get one here (two v4 UUIDs from
-- PostgreSQL's strong random source, 244 random bits); new ones are made with the row.
ALTER TABLE "credit_notes" ADD COLUMN "hosted_token" text;--> statement-breakpoint
UPDATE "credit_notes" SET "hosted_token" = replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');--> statement-breakpoint
ALTER TABLE "credit_notes" ALTER COLUMN "hosted_token" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_hosted_token_unique" ON "credit_notes" USING btree ("hosted_token");
