CREATE TABLE "processor_events" (
	"id" text PRIMARY KEY NOT NULL,
	"processor" text NOT NULL,
	"livemode" boolean NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
CREATE TABLE "stripe_webhook_endpoints" (
	"connection" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"url" text NOT NULL,
	"stripe_endpoint_id" text NOT NULL,
	"sealed_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "processor_events_unprocessed_idx" ON "processor_events" USING btree ("received_at") WHERE "processor_events"."processed_at" is null;