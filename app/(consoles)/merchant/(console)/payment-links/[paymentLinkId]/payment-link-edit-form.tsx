'use client';

import { ActionForm } from '@/components/ui/action-form';
import { SelectField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { updatePaymentLinkAction } from '@/app/(consoles)/merchant/edit-actions';
import { AdjustableQuantityFields } from '../../../../../../components/console/edit/adjustable-quantity-fields';

export interface EditablePaymentLink {
  id: string;
  name: string;
  quantity: number;
  adjustableQuantity: { enabled: boolean; minimum: number; maximum: number };
  singleUse: boolean;
  maxCompletions: number | null;
  /** `YYYY-MM-DDTHH:mm` in UTC, or '' for no expiry. */
  expiresAtLocal: string;
  successUrl: string | null;
  designId: string | null;
}

/** The interface's updatable fields of a payment link (PUT /api/PaymentLink/{id}); empty clears a field. */
export function PaymentLinkEditForm({ link, designs }: { link: EditablePaymentLink; designs: { value: string; label: string }[] }) {
  // A designId stored before designs were checked is kept as an option, so saving changes nothing unasked.
  const unknownDesign =
    link.designId && !designs.some((design) => design.value === link.designId)
      ? [{ value: link.designId, label: `${link.designId} (not a design: your default shows)` }]
      : [];
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
      <AdjustableQuantityFields adjustable={link.adjustableQuantity} />
      <TextField label="Expires (UTC)" name="expiresAt" type="datetime-local" defaultValue={link.expiresAtLocal} hint="Empty: never expires." />
      <TextField
        label="Success URL"
        name="successUrl"
        type="url"
        maxLength={2048}
        defaultValue={link.successUrl ?? ''}
        hint="Where the customer goes after paying; empty shows our receipt page."
      />
      <SelectField
        label="Design"
        name="designId"
        defaultValue={link.designId ?? ''}
        options={[{ value: '', label: 'Your default design' }, ...designs, ...unknownDesign]}
        hint="How the hosted checkout looks (Settings → Branding)."
      />
      <SubmitButton pendingText="Saving…">Save payment link</SubmitButton>
    </ActionForm>
  );
}
