CREATE TABLE "lifecycle_emails" (
	"merchant_id" text NOT NULL,
	"kind" text NOT NULL,
	"subject_key" text NOT NULL,
	"customer_id" text NOT NULL,
	"email_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lifecycle_emails_merchant_id_kind_subject_key_pk" PRIMARY KEY("merchant_id","kind","subject_key")
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "send_trial_ending_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "send_cancellation_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "send_refund_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "send_payment_failed_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "send_card_expiring_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "send_renewal_reminder_emails" boolean DEFAULT true NOT NULL;