CREATE TABLE "checkout_designs" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"display_name" text NOT NULL,
	"logo_sha256" text,
	"brand_color" text NOT NULL,
	"button_text_color" text NOT NULL,
	"accent_color" text NOT NULL,
	"corner_style" text NOT NULL,
	"button_label" text NOT NULL,
	"support_email" text,
	"support_url" text,
	"terms_url" text,
	"privacy_url" text,
	"default_locale" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "design_logos" (
	"sha256" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"byte_size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "checkout_designs_merchant_created_idx" ON "checkout_designs" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_designs_one_default_per_merchant" ON "checkout_designs" USING btree ("merchant_id") WHERE "checkout_designs"."is_default";