CREATE TABLE "document_sequences" (
	"merchant_id" text NOT NULL,
	"kind" text NOT NULL,
	"last_number" bigint NOT NULL,
	CONSTRAINT "document_sequences_merchant_id_kind_pk" PRIMARY KEY("merchant_id","kind")
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"billing_record_id" text NOT NULL,
	"refund_id" text NOT NULL,
	"number" text,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"line_items" jsonb NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"display_name" text NOT NULL,
	"description" text,
	"percentage" text NOT NULL,
	"inclusive" boolean NOT NULL,
	"country" text,
	"jurisdiction" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "legal_name" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "tax_id" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "invoice_footer" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "invoice_prefix" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "address" jsonb;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "tax_id" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "tax_exempt" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "number" text;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_billing_record_id_billing_records_id_fk" FOREIGN KEY ("billing_record_id") REFERENCES "public"."billing_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_merchant_number_unique" ON "credit_notes" USING btree ("merchant_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_refund_unique" ON "credit_notes" USING btree ("refund_id");--> statement-breakpoint
CREATE INDEX "credit_notes_merchant_created_idx" ON "credit_notes" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_notes_billing_record_idx" ON "credit_notes" USING btree ("billing_record_id");--> statement-breakpoint
CREATE INDEX "tax_rates_merchant_created_idx" ON "tax_rates" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_records_merchant_number_unique" ON "billing_records" USING btree ("merchant_id","number");--> statement-breakpoint
-- A document number: the seller's prefix (its own, or its name's letters and digits, upper case,
-- at most 12; else INV), `-CN` for a credit note, a dash, and the number, at least four digits
-- (ACME-0001, ACME-CN-0001, ACME-12345).
CREATE FUNCTION "document_number"(merchant text, of_kind text, taken bigint) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(m."invoice_prefix", ''), nullif(left(upper(regexp_replace(m."name", '[^A-Za-z0-9]', '', 'g')), 12), ''), 'INV')
    || CASE WHEN of_kind = 'credit_note' THEN '-CN' ELSE '' END
    || '-' || lpad(taken::text, greatest(4, length(taken::text)), '0')
  FROM "merchants" m WHERE m."id" = merchant
$$;--> statement-breakpoint
-- Records written before numbers existed are numbered in the order they were written.
WITH numbered AS (
  SELECT "id", "merchant_id", row_number() OVER (PARTITION BY "merchant_id" ORDER BY "created_at", "id") AS n FROM "billing_records"
)
UPDATE "billing_records" r SET "number" = "document_number"(numbered."merchant_id", 'invoice', numbered.n) FROM numbered WHERE numbered."id" = r."id";--> statement-breakpoint
INSERT INTO "document_sequences" ("merchant_id", "kind", "last_number") SELECT "merchant_id", 'invoice', count(*) FROM "billing_records" GROUP BY "merchant_id";--> statement-breakpoint
-- The seller's next number of a kind, as a document's transaction commits. The seller's
-- event_sequences row is locked first (events are numbered at the same moment, by number_event),
-- so every committing transaction takes the seller's counters in one order and none waits in a
-- cycle; a rollback gives the number back (gapless).
CREATE FUNCTION "take_document_number"(merchant text, of_kind text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  taken bigint;
BEGIN
  INSERT INTO "event_sequences" AS s ("merchant_id", "last_sequence") VALUES (merchant, 0)
  ON CONFLICT ("merchant_id") DO UPDATE SET "last_sequence" = s."last_sequence";
  INSERT INTO "document_sequences" AS d ("merchant_id", "kind", "last_number") VALUES (merchant, of_kind, 1)
  ON CONFLICT ("merchant_id", "kind") DO UPDATE SET "last_number" = d."last_number" + 1
  RETURNING "last_number" INTO taken;
  RETURN "document_number"(merchant, of_kind, taken);
END
$$;--> statement-breakpoint
-- Numbers a billing record or credit note once (a second call finds it numbered).
CREATE FUNCTION "number_document"(of_kind text, document_id text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  merchant text;
  current text;
BEGIN
  IF of_kind = 'invoice' THEN
    SELECT "merchant_id", "number" INTO merchant, current FROM "billing_records" WHERE "id" = document_id;
  ELSE
    SELECT "merchant_id", "number" INTO merchant, current FROM "credit_notes" WHERE "id" = document_id;
  END IF;
  IF merchant IS NULL OR current IS NOT NULL THEN
    RETURN current;
  END IF;
  current := "take_document_number"(merchant, of_kind);
  IF of_kind = 'invoice' THEN
    UPDATE "billing_records" SET "number" = current WHERE "id" = document_id;
  ELSE
    UPDATE "credit_notes" SET "number" = current WHERE "id" = document_id;
  END IF;
  RETURN current;
END
$$;--> statement-breakpoint
CREATE FUNCTION "number_new_document"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "number_document"(TG_ARGV[0], NEW."id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "billing_records_number" AFTER INSERT ON "billing_records" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "number_new_document"('invoice');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "credit_notes_number" AFTER INSERT ON "credit_notes" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "number_new_document"('credit_note');--> statement-breakpoint
-- number_event (0041_event_sequence), and an event of a billing record or credit note written in
-- the document's own transaction gets the number its body could not carry yet.
CREATE OR REPLACE FUNCTION "number_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  taken bigint;
  of_kind text;
  document text;
BEGIN
  of_kind := CASE WHEN NEW."type" LIKE 'billing_record.%' THEN 'invoice' WHEN NEW."type" LIKE 'credit_note.%' THEN 'credit_note' END;
  IF of_kind IS NOT NULL THEN
    document := "number_document"(of_kind, NEW."data"->'object'->>'id');
    IF document IS NOT NULL THEN
      UPDATE "events" SET "data" = jsonb_set("data", '{object,number}', to_jsonb(document)) WHERE "id" = NEW."id";
    END IF;
  END IF;
  INSERT INTO "event_sequences" AS s ("merchant_id", "last_sequence") VALUES (NEW."merchant_id", 1)
  ON CONFLICT ("merchant_id") DO UPDATE SET "last_sequence" = s."last_sequence" + 1
  RETURNING "last_sequence" INTO taken;
  UPDATE "events" SET "sequence" = taken WHERE "id" = NEW."id";
  UPDATE "webhook_deliveries" SET "event_sequence" = taken WHERE "event_id" = NEW."id";
  RETURN NULL;
END
$$;
