'use client';

import { ActionForm } from '@/components/ui/action-form';
import { SelectField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { createCreditGrantAction, createEntitlementPolicyAction, setEntitlementOverrideAction } from '@/app/(consoles)/merchant/entitlement-actions';

const ALLOWED = [
  { value: 'Limited', label: 'Limited' },
  { value: 'Unlimited', label: 'Unlimited' },
  { value: 'Denied', label: 'Denied' },
];

/** Feature, allowed and the limits a policy and an override share; a spend limit only where a currency says what it counts in. */
function EntitlementFields({ spendIn }: { spendIn: string | null }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <TextField label="Feature" name="feature" required maxLength={64} className="[&_input]:font-mono" hint="Such as api_calls." />
      <SelectField label="Allowed" name="allowed" options={ALLOWED} />
      <TextField label="Units per period" name="limit" inputMode="numeric" hint="Limited only." />
      {spendIn ? <TextField label={`Spend per period (${spendIn})`} name="limitAmount" inputMode="decimal" hint="Limited only, such as 15.00." /> : null}
    </div>
  );
}

/** An entitlement policy on a price (POST /api/Price/{priceId}/EntitlementPolicy). */
export function EntitlementPolicyForm({ prices }: { prices: { id: string; label: string }[] }) {
  return (
    <ActionForm action={createEntitlementPolicyAction} className="space-y-3" ariaLabel="Add entitlement policy">
      <SelectField label="Price" name="priceId" options={prices.map((price) => ({ value: price.id, label: price.label }))} />
      <EntitlementFields spendIn="the price’s currency" />
      <TextField label="Credits each paid period" name="creditGrantAmount" inputMode="numeric" hint="Optional; per purchase for a one-time price." />
      <SubmitButton variant="secondary" pendingText="Adding…">
        Add policy
      </SubmitButton>
    </ActionForm>
  );
}

/** A customer's override of one feature (POST /api/Customer/{customerId}/EntitlementOverride). */
export function EntitlementOverrideForm({ customerId, currency }: { customerId: string; currency: string | null }) {
  return (
    <ActionForm action={setEntitlementOverrideAction} className="space-y-3" ariaLabel="Set entitlement override">
      <input type="hidden" name="customerId" value={customerId} />
      {currency ? <input type="hidden" name="currency" value={currency} /> : null}
      <EntitlementFields spendIn={currency} />
      <SubmitButton variant="secondary" pendingText="Saving…">
        Set override
      </SubmitButton>
    </ActionForm>
  );
}

/** Credits for one feature (POST /api/Customer/{customerId}/CreditGrant). */
export function CreditGrantForm({ customerId }: { customerId: string }) {
  return (
    <ActionForm action={createCreditGrantAction} className="space-y-3" ariaLabel="Grant credits">
      <input type="hidden" name="customerId" value={customerId} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Feature" name="feature" required maxLength={64} className="[&_input]:font-mono" />
        <TextField label="Credits" name="amount" required inputMode="numeric" />
        <TextField label="Expires (UTC, optional)" name="expiresAt" type="datetime-local" />
        <TextField label="Reason" name="reason" required maxLength={500} hint="Such as Credit pack: 500 messages." />
      </div>
      <SubmitButton variant="secondary" pendingText="Granting…">
        Grant credits
      </SubmitButton>
    </ActionForm>
  );
}
