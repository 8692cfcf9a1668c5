DROP INDEX "webhook_deliveries_unfinished_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "requested_trigger" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "requested_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("due_at") WHERE due_at is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_leased_idx" ON "webhook_deliveries" USING btree ("endpoint_id") WHERE lease_until is not null;--> statement-breakpoint
-- Unfinished deliveries of the graphile-worker era join the queue; their per-delivery jobs go.
UPDATE "webhook_deliveries" SET "due_at" = coalesce("next_attempt_at", now()) WHERE "status" IN ('pending', 'failed');--> statement-breakpoint
DO $$ BEGIN
  IF to_regclass('graphile_worker._private_jobs') IS NOT NULL THEN
    DELETE FROM graphile_worker._private_jobs j USING graphile_worker._private_tasks t
    WHERE t.id = j.task_id AND t.identifier = 'deliver-webhook';
  END IF;
END $$;
