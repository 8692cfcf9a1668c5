'use client';

import { ActionForm } from '@/components/ui/action-form';
import { CheckboxGroup, SelectField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { createPaymentLinkAction } from './actions';
import { NewLinkResult } from './link-forms';
import { AdjustableQuantityFields } from '@/components/console/edit/adjustable-quantity-fields';

export function CreateLinkForm({
  prices,
  meteredPrices,
  designs,
}: {
  prices: { value: string; label: string }[];
  meteredPrices: { value: string; label: string }[];
  designs: { value: string; label: string }[];
}) {
  return (
    <ActionForm
      action={createPaymentLinkAction}
      className="space-y-4"
      ariaLabel="New payment link"
      renderResult={(result) => <NewLinkResult result={result} />}
    >
      <SelectField
        label="Sell"
        name="priceId"
        options={[{ value: '', label: 'An ad hoc amount (below)' }, ...prices]}
        hint="A price from your catalog, or an amount typed here."
      />
      <TextField label="Quantity" name="quantity" type="number" min={1} max={10000} defaultValue={1} required />
      <AdjustableQuantityFields />
      {meteredPrices.length > 0 ? (
        <CheckboxGroup
          legend="Metered items (recurring prices only)"
          name="items"
          hint="Usage the subscription bills in arrears at each period end; same currency and interval as the price sold."
          options={meteredPrices.map((price) => ({ value: price.value, label: price.label }))}
        />
      ) : null}
      <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-xs font-medium text-slate-600">Ad hoc amount only</legend>
        <TextField label="Name" name="name" maxLength={250} hint="What the customer buys (optional for a price: defaults to the product name)." />
        <div className="grid grid-cols-[minmax(0,1fr)_100px] gap-3">
          <TextField label="Unit amount" name="unitAmount" inputMode="decimal" placeholder="12.00" />
          <TextField label="Currency" name="currency" defaultValue="USD" maxLength={3} className="[&_input]:uppercase" />
        </div>
        <TextField label="Description" name="description" maxLength={5000} />
      </fieldset>
      <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-xs font-medium text-slate-600">Options</legend>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="singleUse" className="h-4 w-4 accent-brand-600" /> Single use (can be paid once)
        </label>
        <TextField label="Maximum payments" name="maxCompletions" type="number" min={1} hint="Optional; the link closes when reached." />
        <TextField label="Expires at (UTC)" name="expiresAt" type="datetime-local" hint="Optional." />
        <TextField
          label="Success URL"
          name="successUrl"
          type="url"
          placeholder="https://example.com/thanks"
          hint="Optional; where customers go after paying."
        />
        {designs.length > 0 ? (
          <SelectField
            label="Design"
            name="designId"
            options={[{ value: '', label: 'Your default design' }, ...designs]}
            hint="How the checkout looks (Settings → Branding)."
          />
        ) : null}
      </fieldset>
      <SubmitButton pendingText="Creating…">Create payment link</SubmitButton>
    </ActionForm>
  );
}
