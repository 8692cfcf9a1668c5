'use client';

import { useEffect } from 'react';
import { ActionForm } from '@/components/ui/action-form';
import { useFormState } from '@/components/ui/form-context';
import { SubmitButton } from '@/components/ui/submit-button';
import { StripeCardField, useStripeCard, type StripeCard, type StripeCardSettings } from '@/components/checkout/stripe-card';
import type { FormState } from '@/lib/server/web/form-state';
import type { CardToAuthenticate } from '@/lib/payments/card-entry';
import { addCardAction, finishAddCardAction } from './actions';

/**
 * The portal's "Add a card" in Stripe mode: the card is typed into Stripe.js's card element, which
 * makes the PaymentMethod in the browser; the action gets only its id (lib/payments/card-entry.ts).
 * A card whose issuer asks for 3-D Secure comes back with its SetupIntent's client secret: Stripe.js
 * shows the challenge, then the second action saves the card if Stripe says it was authenticated.
 */
export function StripeAddCardForm({
  stripe,
  customerId,
  locale,
  words,
}: {
  stripe: StripeCardSettings;
  customerId: string;
  locale: string;
  words: { form: string; card: string; unavailable: string; add: string; adding: string };
}) {
  const card = useStripeCard(stripe, locale);
  async function addCard(state: FormState, form: FormData): Promise<FormState> {
    const answer = await addCardAction(state, form);
    const authenticate = (answer.result as { authenticate?: CardToAuthenticate } | undefined)?.authenticate;
    if (!authenticate) return answer;
    await card.confirmCardSetup(authenticate.clientSecret);
    const finish = new FormData();
    finish.set('customerId', customerId);
    finish.set('locale', locale);
    finish.set('setupIntent', authenticate.setupIntent);
    finish.set('last4', authenticate.last4);
    return finishAddCardAction(state, finish);
  }
  return (
    <ActionForm
      action={addCard}
      className="mt-4 space-y-3"
      ariaLabel={words.form}
      prepare={async (form) => {
        const made = await card.createPaymentMethod({});
        if ('error' in made) return made.error;
        form.set('paymentMethod', made.id);
        return null;
      }}
    >
      <input type="hidden" name="customerId" value={customerId} />
      <input type="hidden" name="locale" value={locale} />
      <StripeCardField card={card} label={words.card} unavailable={words.unavailable} />
      <ClearWhenSaved clear={card.clear} />
      <SubmitButton variant="secondary" pendingText={words.adding}>
        {words.add}
      </SubmitButton>
    </ActionForm>
  );
}

/** A saved card leaves the element empty, as the sandbox's fields are after the form resets. */
function ClearWhenSaved({ clear }: { clear: StripeCard['clear'] }) {
  const { notice } = useFormState();
  useEffect(() => {
    if (notice) clear();
  }, [notice, clear]);
  return null;
}
