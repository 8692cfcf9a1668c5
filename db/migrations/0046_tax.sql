ALTER TABLE "merchants" ADD COLUMN "default_tax_rate_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "tax_rate_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "tax_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "taxes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "tax_exempt" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "seller_details" jsonb;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "customer_details" jsonb;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "tax_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "tax" jsonb;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "tax_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "taxes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "seller_details" jsonb;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "customer_details" jsonb;--> statement-breakpoint
-- Who issued a document and to whom, as they are when it is numbered: a VAT invoice keeps the
-- details it was issued with (docs/invoices.md, "Seller and buyer details").
CREATE FUNCTION "seller_details"(merchant text) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'name', coalesce(nullif(m."legal_name", ''), m."name"),
    'email', m."support_email",
    'address', CASE WHEN coalesce(m."address_line1", m."address_line2", m."address_city", m."address_region", m."address_postal_code", m."address_country") IS NULL THEN NULL
      ELSE jsonb_build_object('line1', m."address_line1", 'line2', m."address_line2", 'city', m."address_city", 'region', m."address_region", 'postalCode', m."address_postal_code", 'country', m."address_country") END,
    'taxId', m."tax_id",
    'footer', m."invoice_footer")
  FROM "merchants" m WHERE m."id" = merchant
$$;--> statement-breakpoint
CREATE FUNCTION "customer_details"(customer text) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('name', c."name", 'email', c."email", 'address', c."address", 'taxId', c."tax_id")
  FROM "customers" c WHERE c."id" = customer
$$;--> statement-breakpoint
-- number_document (0044_invoice_numbers), and the document keeps the parties' details with its number.
CREATE OR REPLACE FUNCTION "number_document"(of_kind text, document_id text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  merchant text;
  customer text;
  current text;
BEGIN
  IF of_kind = 'invoice' THEN
    SELECT "merchant_id", "customer_id", "number" INTO merchant, customer, current FROM "billing_records" WHERE "id" = document_id;
  ELSE
    SELECT "merchant_id", "customer_id", "number" INTO merchant, customer, current FROM "credit_notes" WHERE "id" = document_id;
  END IF;
  IF merchant IS NULL OR current IS NOT NULL THEN
    RETURN current;
  END IF;
  current := "take_document_number"(merchant, of_kind);
  IF of_kind = 'invoice' THEN
    UPDATE "billing_records" SET "number" = current, "seller_details" = "seller_details"(merchant), "customer_details" = "customer_details"(customer) WHERE "id" = document_id;
  ELSE
    UPDATE "credit_notes" SET "number" = current, "seller_details" = "seller_details"(merchant), "customer_details" = "customer_details"(customer) WHERE "id" = document_id;
  END IF;
  RETURN current;
END
$$;
