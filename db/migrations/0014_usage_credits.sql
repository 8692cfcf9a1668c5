CREATE TABLE "credit_draws" (
	"usage_id" text NOT NULL,
	"grant_id" text NOT NULL,
	"units" integer NOT NULL,
	CONSTRAINT "credit_draws_usage_id_grant_id_pk" PRIMARY KEY("usage_id","grant_id")
);
--> statement-breakpoint
CREATE TABLE "usage_counters" (
	"merchant_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"feature" text NOT NULL,
	"period_key" text NOT NULL,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"used" integer DEFAULT 0 NOT NULL,
	"spent" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_counters_customer_id_feature_period_key_pk" PRIMARY KEY("customer_id","feature","period_key")
);
--> statement-breakpoint
CREATE TABLE "usage_records" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"feature" text NOT NULL,
	"quantity" integer NOT NULL,
	"amount" integer DEFAULT 0 NOT NULL,
	"external_id" text,
	"fingerprint" text NOT NULL,
	"period_key" text NOT NULL,
	"properties" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"reversed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_thresholds" (
	"customer_id" text NOT NULL,
	"feature" text NOT NULL,
	"type" text NOT NULL,
	"scope_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_thresholds_customer_id_feature_type_scope_key_pk" PRIMARY KEY("customer_id","feature","type","scope_key")
);
--> statement-breakpoint
ALTER TABLE "credit_grants" ALTER COLUMN "subscription_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_grants" ALTER COLUMN "period_index" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_grants" ADD COLUMN "source" text DEFAULT 'period' NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_grants" ADD COLUMN "checkout_id" text;--> statement-breakpoint
ALTER TABLE "credit_grants" ADD COLUMN "remaining" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_grants" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credit_grants" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "credit_draws" ADD CONSTRAINT "credit_draws_usage_id_usage_records_id_fk" FOREIGN KEY ("usage_id") REFERENCES "public"."usage_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD CONSTRAINT "usage_counters_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_records_external_id_unique" ON "usage_records" USING btree ("merchant_id","external_id") WHERE "usage_records"."external_id" is not null;--> statement-breakpoint
CREATE INDEX "usage_records_merchant_created_idx" ON "usage_records" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "usage_records_customer_feature_idx" ON "usage_records" USING btree ("customer_id","feature","timestamp");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_grants_checkout_feature_unique" ON "credit_grants" USING btree ("checkout_id","feature");--> statement-breakpoint
CREATE INDEX "credit_grants_customer_feature_idx" ON "credit_grants" USING btree ("customer_id","feature");--> statement-breakpoint
-- Hand-written: grants made before this migration keep their whole amount as their balance.
UPDATE "credit_grants" SET "remaining" = "amount";
