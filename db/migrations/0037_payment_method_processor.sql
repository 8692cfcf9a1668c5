ALTER TABLE "payment_methods" ADD COLUMN "processor" text DEFAULT 'sandbox' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "processor_mode" text DEFAULT 'test' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "processor_connection" text DEFAULT 'platform' NOT NULL;