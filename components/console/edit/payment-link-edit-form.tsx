'use client';

import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { updatePaymentLinkAction } from '@/app/(consoles)/merchant/edit-actions';

export interface EditablePaymentLink {
  id: string;
  name: string;
  quantity: number;
  singleUse: boolean;
  maxCompletions: number | null;
  /** `YYYY-MM-DDTHH:mm` in UTC, or '' for no expiry. */
  expiresAtLocal: string;
  successUrl: string | null;
  designId: string | null;
}

/** The interface's updatable fields of a payment link (PUT /api/PaymentLink/{id}); empty clears a field. */
export function PaymentLinkEditForm({ link }: { link: EditablePaymentLink }) {
  return (
    <ActionForm action={updatePaymentLinkAction} className="space-y-4" ariaLabel="Edit payment link">
      <input type="hidden" name="paymentLinkId" value={link.id} />
      <TextField label="Name" name="name" required maxLength={250} defaultValue={link.name} hint="What the customer buys, as the hosted page shows it." />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Quantity" name="quantity" inputMode="numeric" required defaultValue={String(link.quantity)} />
        <TextField
          label="Maximum payments"
          name="maxCompletions"
          inputMode="numeric"
          defaultValue={link.maxCompletions === null ? '' : String(link.maxCompletions)}
          hint={link.singleUse ? 'A single-use link completes once.' : 'Empty: no limit.'}
        />
      </div>
      <TextField label="Expires (UTC)" name="expiresAt" type="datetime-local" defaultValue={link.expiresAtLocal} hint="Empty: never expires." />
      <TextField label="Success URL" name="successUrl" type="url" maxLength={2048} defaultValue={link.successUrl ?? ''} hint="Where the customer goes after paying; empty shows our receipt page." />
      <TextField label="Design id" name="designId" maxLength={64} defaultValue={link.designId ?? ''} hint="Optional: your hosted page design." />
      <SubmitButton pendingText="Saving…">Save payment link</SubmitButton>
    </ActionForm>
  );
}
