CREATE TABLE "event_sequences" (
	"merchant_id" text PRIMARY KEY NOT NULL,
	"last_sequence" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "sequence" bigint;--> statement-breakpoint
-- Events recorded before sequences existed are numbered in the order they were recorded.
UPDATE "events" e SET "sequence" = n.sequence
FROM (SELECT "id", row_number() OVER (PARTITION BY "merchant_id" ORDER BY "created_at", "id") AS sequence FROM "events") n
WHERE n."id" = e."id";--> statement-breakpoint
INSERT INTO "event_sequences" ("merchant_id", "last_sequence") SELECT "merchant_id", max("sequence") FROM "events" GROUP BY "merchant_id";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "event_sequence" bigint;--> statement-breakpoint
UPDATE "webhook_deliveries" d SET "event_sequence" = e."sequence" FROM "events" e WHERE e."id" = d."event_id" AND d."due_at" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "events_merchant_sequence_unique" ON "events" USING btree ("merchant_id","sequence");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("due_at","event_sequence") WHERE due_at is not null;--> statement-breakpoint
-- Numbers each new event as its transaction commits, in the order the transaction recorded its
-- events (deferred triggers fire in the order of their rows' writes), and gives the number to
-- the event's deliveries. Taking the seller's counter last means the counter's row lock is held
-- only from there to commit, never while the transaction waits for another lock.
CREATE FUNCTION "number_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  taken bigint;
BEGIN
  INSERT INTO "event_sequences" AS s ("merchant_id", "last_sequence") VALUES (NEW."merchant_id", 1)
  ON CONFLICT ("merchant_id") DO UPDATE SET "last_sequence" = s."last_sequence" + 1
  RETURNING "last_sequence" INTO taken;
  UPDATE "events" SET "sequence" = taken WHERE "id" = NEW."id";
  UPDATE "webhook_deliveries" SET "event_sequence" = taken WHERE "event_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "events_number" AFTER INSERT ON "events" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "number_event"();
