ALTER TABLE "merchants" ADD COLUMN "support_email" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "support_url" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "address_line1" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "address_line2" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "address_city" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "address_region" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "address_postal_code" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "address_country" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;