ALTER TABLE "prices" ADD COLUMN "usage_type" text DEFAULT 'licensed' NOT NULL;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "feature" text;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "aggregation" text;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "aggregation_property" text;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "unit_amount_decimal" text;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "tiers" jsonb;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "tiers_mode" text;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "package_size" integer;