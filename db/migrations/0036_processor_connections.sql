CREATE TABLE "processor_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"processor" text NOT NULL,
	"mode" text NOT NULL,
	"account_reference" text NOT NULL,
	"account_name" text,
	"sealed_secret_key" text,
	"publishable_key" text NOT NULL,
	"connected_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disconnected_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "processor_connection" text DEFAULT 'platform' NOT NULL;--> statement-breakpoint
ALTER TABLE "processor_customers" ADD COLUMN "connection" text DEFAULT 'platform' NOT NULL;--> statement-breakpoint
ALTER TABLE "processor_events" ADD COLUMN "connection" text DEFAULT 'platform' NOT NULL;--> statement-breakpoint
ALTER TABLE "processor_customers" DROP CONSTRAINT "processor_customers_customer_id_processor_mode_pk";--> statement-breakpoint
ALTER TABLE "processor_customers" ADD CONSTRAINT "processor_customers_customer_id_processor_mode_connection_pk" PRIMARY KEY("customer_id","processor","mode","connection");--> statement-breakpoint
ALTER TABLE "processor_events" DROP CONSTRAINT "processor_events_pkey";--> statement-breakpoint
ALTER TABLE "processor_events" ADD CONSTRAINT "processor_events_connection_id_pk" PRIMARY KEY("connection","id");--> statement-breakpoint
ALTER TABLE "processor_connections" ADD CONSTRAINT "processor_connections_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "processor_connections_one_active" ON "processor_connections" USING btree ("merchant_id") WHERE "processor_connections"."disconnected_at" is null;--> statement-breakpoint
CREATE INDEX "processor_events_received_idx" ON "processor_events" USING btree ("received_at");