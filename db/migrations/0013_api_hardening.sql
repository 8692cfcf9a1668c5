ALTER TABLE "idempotency_keys" ADD COLUMN "lease_id" text;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "successor_pair" text;