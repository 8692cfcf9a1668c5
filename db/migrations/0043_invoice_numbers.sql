CREATE TABLE "document_sequences" (
	"merchant_id" text NOT NULL,
	"kind" text NOT NULL,
	"last_number" bigint NOT NULL,
	CONSTRAINT "document_sequences_merchant_id_kind_pk" PRIMARY KEY("merchant_id","kind")
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "invoice_prefix" text;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "number" text;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_records_merchant_number_unique" ON "billing_records" USING btree ("merchant_id","number");--> statement-breakpoint
-- An invoice number: the seller's prefix (its own, or its name's letters and digits, upper case,
-- at most 12; else INV), a dash, and the number, at least four digits (ACME-0001, ACME-12345).
CREATE FUNCTION "invoice_number"(merchant text, taken bigint) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(m."invoice_prefix", ''), nullif(left(upper(regexp_replace(m."name", '[^A-Za-z0-9]', '', 'g')), 12), ''), 'INV')
    || '-' || lpad(taken::text, greatest(4, length(taken::text)), '0')
  FROM "merchants" m WHERE m."id" = merchant
$$;--> statement-breakpoint
-- Records written before numbers existed are numbered in the order they were written.
WITH numbered AS (
  SELECT "id", "merchant_id", row_number() OVER (PARTITION BY "merchant_id" ORDER BY "created_at", "id") AS n FROM "billing_records"
)
UPDATE "billing_records" r SET "number" = "invoice_number"(numbered."merchant_id", numbered.n) FROM numbered WHERE numbered."id" = r."id";--> statement-breakpoint
INSERT INTO "document_sequences" ("merchant_id", "kind", "last_number") SELECT "merchant_id", 'invoice', count(*) FROM "billing_records" GROUP BY "merchant_id";--> statement-breakpoint
-- Numbers a billing record once, as its transaction commits. The seller's event_sequences row is
-- locked first (its events are numbered at the same moment, by number_event), so every
-- committing transaction takes the seller's two counters in one order and none waits in a cycle.
CREATE FUNCTION "number_billing_record"(record_id text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  merchant text;
  current text;
  taken bigint;
BEGIN
  SELECT "merchant_id", "number" INTO merchant, current FROM "billing_records" WHERE "id" = record_id;
  IF merchant IS NULL OR current IS NOT NULL THEN
    RETURN;
  END IF;
  INSERT INTO "event_sequences" AS s ("merchant_id", "last_sequence") VALUES (merchant, 0)
  ON CONFLICT ("merchant_id") DO UPDATE SET "last_sequence" = s."last_sequence";
  INSERT INTO "document_sequences" AS d ("merchant_id", "kind", "last_number") VALUES (merchant, 'invoice', 1)
  ON CONFLICT ("merchant_id", "kind") DO UPDATE SET "last_number" = d."last_number" + 1
  RETURNING "last_number" INTO taken;
  UPDATE "billing_records" SET "number" = "invoice_number"(merchant, taken) WHERE "id" = record_id;
END
$$;--> statement-breakpoint
CREATE FUNCTION "number_new_billing_record"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "number_billing_record"(NEW."id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "billing_records_number" AFTER INSERT ON "billing_records" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "number_new_billing_record"();--> statement-breakpoint
-- number_event (0041_event_sequence), and a billing_record.* event written in the record's own
-- transaction gets the number its body could not carry yet.
CREATE OR REPLACE FUNCTION "number_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  taken bigint;
  record_id text;
BEGIN
  IF NEW."type" LIKE 'billing_record.%' THEN
    record_id := NEW."data"->'object'->>'id';
    PERFORM "number_billing_record"(record_id);
    UPDATE "events" SET "data" = jsonb_set("data", '{object,number}', to_jsonb(r."number"))
    FROM "billing_records" r WHERE "events"."id" = NEW."id" AND r."id" = record_id AND r."number" IS NOT NULL;
  END IF;
  INSERT INTO "event_sequences" AS s ("merchant_id", "last_sequence") VALUES (NEW."merchant_id", 1)
  ON CONFLICT ("merchant_id") DO UPDATE SET "last_sequence" = s."last_sequence" + 1
  RETURNING "last_sequence" INTO taken;
  UPDATE "events" SET "sequence" = taken WHERE "id" = NEW."id";
  UPDATE "webhook_deliveries" SET "event_sequence" = taken WHERE "event_id" = NEW."id";
  RETURN NULL;
END
$$;
