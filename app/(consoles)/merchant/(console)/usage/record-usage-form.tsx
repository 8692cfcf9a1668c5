'use client';

import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { recordUsageAction } from '@/app/(consoles)/merchant/entitlement-actions';

/** One usage record (POST /api/Usage); `formKey` records it once however often it is sent. */
export function RecordUsageForm({ formKey, customerId }: { formKey: string; customerId?: string }) {
  return (
    <ActionForm action={recordUsageAction} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end" ariaLabel="Record usage">
      <input type="hidden" name="formKey" value={formKey} />
      <TextField label="Customer id" name="customerId" required defaultValue={customerId} className="[&_input]:font-mono" />
      <TextField label="Feature" name="feature" required maxLength={64} className="[&_input]:font-mono" />
      <TextField label="Quantity" name="quantity" inputMode="numeric" defaultValue="1" />
      <TextField label="Your id (optional)" name="usageExternalId" maxLength={255} hint="The same id is recorded once." />
      <SubmitButton variant="secondary" pendingText="Recording…">
        Record usage
      </SubmitButton>
    </ActionForm>
  );
}
