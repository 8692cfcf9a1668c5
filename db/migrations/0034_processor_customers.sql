CREATE TABLE "processor_customers" (
	"merchant_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"processor" text NOT NULL,
	"mode" text NOT NULL,
	"reference" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processor_customers_customer_id_processor_mode_pk" PRIMARY KEY("customer_id","processor","mode")
);
--> statement-breakpoint
ALTER TABLE "processor_customers" ADD CONSTRAINT "processor_customers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;