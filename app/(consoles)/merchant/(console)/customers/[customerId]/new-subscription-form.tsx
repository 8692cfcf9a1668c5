'use client';

import Link from 'next/link';
import { ActionForm } from '@/components/ui/action-form';
import { SelectField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { createSubscriptionAction } from '@/app/(consoles)/merchant/(console)/subscriptions/actions';

type Choice = { value: string; label: string };

/**
 * Subscribes the customer to a price (POST /api/Subscription) with its saved card; a price with a
 * trial starts the trial, else the first period is charged now. `formKey` makes a double submit
 * subscribe once.
 */
export function NewSubscriptionForm({
  customerId,
  prices,
  meteredPrices,
  paymentMethods,
  formKey,
}: {
  customerId: string;
  prices: Choice[];
  meteredPrices: Choice[];
  paymentMethods: Choice[];
  formKey: string;
}) {
  if (prices.length === 0) return <p className="text-sm text-slate-600">You have no active recurring price to subscribe the customer to.</p>;
  if (paymentMethods.length === 0)
    return <p className="text-sm text-slate-600">The customer has no saved card: it gets one through a checkout or your backend’s PaymentMethod call.</p>;
  return (
    <ActionForm
      action={createSubscriptionAction}
      className="space-y-3"
      ariaLabel="New subscription"
      renderResult={(result: { subscriptionId: string }) => (
        <p className="mt-2 text-sm">
          <Link href={`/merchant/subscriptions/${result.subscriptionId}`} className="font-medium text-brand-700 hover:underline">
            Open subscription {result.subscriptionId}
          </Link>
        </p>
      )}
    >
      <input type="hidden" name="customerId" value={customerId} />
      <input type="hidden" name="formKey" value={formKey} />
      <SelectField label="Price" name="priceId" options={prices} hint="A trial, if the price has one, starts now; otherwise the first period is charged now." />
      {meteredPrices.length > 0 ? (
        <fieldset className="space-y-1">
          <legend className="text-sm font-medium text-slate-900">Metered items (optional)</legend>
          {meteredPrices.map((price) => (
            <label key={price.value} className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" name="itemPriceId" value={price.value} className="h-4 w-4 accent-brand-600" />
              {price.label}
            </label>
          ))}
        </fieldset>
      ) : null}
      <SelectField label="Card" name="paymentMethodId" options={paymentMethods} />
      <SubmitButton pendingText="Subscribing…">Start subscription</SubmitButton>
    </ActionForm>
  );
}
