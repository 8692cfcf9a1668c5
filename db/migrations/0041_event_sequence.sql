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
ALTER TABLE "events" ALTER COLUMN "sequence" SET NOT NULL;--> statement-breakpoint
INSERT INTO "event_sequences" ("merchant_id", "last_sequence") SELECT "merchant_id", max("sequence") FROM "events" GROUP BY "merchant_id";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "event_sequence" bigint;--> statement-breakpoint
UPDATE "webhook_deliveries" d SET "event_sequence" = e."sequence" FROM "events" e WHERE e."id" = d."event_id" AND d."due_at" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "events_merchant_sequence_unique" ON "events" USING btree ("merchant_id","sequence");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("due_at","event_sequence") WHERE due_at is not null;
