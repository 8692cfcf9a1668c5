ALTER TABLE "outbound_emails" ADD COLUMN "sealed_content" text;--> statement-breakpoint
CREATE INDEX "outbound_emails_created_idx" ON "outbound_emails" USING btree ("created_at");