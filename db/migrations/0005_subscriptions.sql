CREATE TABLE "credit_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"period_index" integer NOT NULL,
	"feature" text NOT NULL,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_billing_records" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"billing_record_id" text NOT NULL,
	"kind" text NOT NULL,
	"period_index" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_payment_id" text,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"from_price_id" text,
	"to_price_id" text,
	"actor" text NOT NULL,
	"reason" text,
	"effective_at" timestamp with time zone NOT NULL,
	"version" integer,
	"proration_amount" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"price_id" text NOT NULL,
	"payment_method_id" text,
	"payment_token" text,
	"status" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"billing_anchor" timestamp with time zone NOT NULL,
	"current_period_index" integer NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"trial_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"canceled_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"credit_balance" integer DEFAULT 0 NOT NULL,
	"test_clock_id" text,
	"next_action_at" timestamp with time zone,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_clock_customers" (
	"customer_id" text PRIMARY KEY NOT NULL,
	"test_clock_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_clocks" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"name" text,
	"frozen_time" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credit_grants" ADD CONSTRAINT "credit_grants_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_grants" ADD CONSTRAINT "credit_grants_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_tokens" ADD CONSTRAINT "portal_tokens_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_billing_records" ADD CONSTRAINT "subscription_billing_records_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_billing_records" ADD CONSTRAINT "subscription_billing_records_billing_record_id_billing_records_id_fk" FOREIGN KEY ("billing_record_id") REFERENCES "public"."billing_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_billing_records" ADD CONSTRAINT "subscription_billing_records_last_payment_id_payments_id_fk" FOREIGN KEY ("last_payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_changes" ADD CONSTRAINT "subscription_changes_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_price_id_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_test_clock_id_test_clocks_id_fk" FOREIGN KEY ("test_clock_id") REFERENCES "public"."test_clocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_clock_customers" ADD CONSTRAINT "test_clock_customers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_clock_customers" ADD CONSTRAINT "test_clock_customers_test_clock_id_test_clocks_id_fk" FOREIGN KEY ("test_clock_id") REFERENCES "public"."test_clocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_grants_period_feature_unique" ON "credit_grants" USING btree ("subscription_id","period_index","feature");--> statement-breakpoint
CREATE UNIQUE INDEX "portal_tokens_hash_unique" ON "portal_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_billing_records_period_unique" ON "subscription_billing_records" USING btree ("subscription_id","period_index") WHERE "subscription_billing_records"."kind" = 'period';--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_billing_records_record_unique" ON "subscription_billing_records" USING btree ("billing_record_id");--> statement-breakpoint
CREATE INDEX "subscription_billing_records_sub_idx" ON "subscription_billing_records" USING btree ("subscription_id","created_at");--> statement-breakpoint
CREATE INDEX "subscription_changes_sub_idx" ON "subscription_changes" USING btree ("subscription_id","created_at");--> statement-breakpoint
CREATE INDEX "subscription_changes_scheduled_idx" ON "subscription_changes" USING btree ("subscription_id","effective_at") WHERE "subscription_changes"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "subscriptions_merchant_created_idx" ON "subscriptions" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_customer_idx" ON "subscriptions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "subscriptions_next_action_idx" ON "subscriptions" USING btree ("next_action_at") WHERE "subscriptions"."next_action_at" is not null;--> statement-breakpoint
CREATE INDEX "test_clocks_merchant_created_idx" ON "test_clocks" USING btree ("merchant_id","created_at");