ALTER TABLE "payments" ADD COLUMN "next_action_url" text;--> statement-breakpoint
ALTER TABLE "sandbox_processor_operations" ADD COLUMN "action_id" text;--> statement-breakpoint
ALTER TABLE "sandbox_processor_operations" ADD COLUMN "return_url" text;--> statement-breakpoint
CREATE INDEX "payments_requires_action_idx" ON "payments" USING btree ("updated_at") WHERE "payments"."status" = 'requires_action';--> statement-breakpoint
ALTER TABLE "sandbox_processor_operations" ADD CONSTRAINT "sandbox_processor_operations_actionId_unique" UNIQUE("action_id");