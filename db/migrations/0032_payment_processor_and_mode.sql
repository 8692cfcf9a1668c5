ALTER TABLE "payments" ADD COLUMN "processor" text DEFAULT 'sandbox' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "processor_mode" text DEFAULT 'test' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "processor" text DEFAULT 'sandbox' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "processor_mode" text DEFAULT 'test' NOT NULL;