'use client';

import { ActionForm } from '@/components/ui/action-form';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { SubmitButton } from '@/components/ui/submit-button';
import { paymentMethodAction } from '@/app/(consoles)/merchant/customer-actions';

/** A saved card's Make default and Remove (the API's PaymentMethod Default and DELETE). */
export function PaymentMethodActions({ customerId, paymentMethodId, isDefault }: { customerId: string; paymentMethodId: string; isDefault: boolean }) {
  const hidden = (
    <>
      <input type="hidden" name="customerId" value={customerId} />
      <input type="hidden" name="paymentMethodId" value={paymentMethodId} />
    </>
  );
  return (
    <span className="flex flex-wrap gap-2">
      {isDefault ? null : (
        <ActionForm action={paymentMethodAction} ariaLabel={`Make ${paymentMethodId} the default`}>
          {hidden}
          <input type="hidden" name="action" value="default" />
          <SubmitButton variant="secondary" size="sm">
            Make default
          </SubmitButton>
        </ActionForm>
      )}
      <ActionForm action={paymentMethodAction} ariaLabel={`Remove ${paymentMethodId}`}>
        {hidden}
        <input type="hidden" name="action" value="remove" />
        <ConfirmButton
          variant="secondary"
          question="Remove this card? Subscriptions that charge it move to the customer’s default card."
          confirmLabel="Remove card"
        >
          Remove
        </ConfirmButton>
      </ActionForm>
    </span>
  );
}
