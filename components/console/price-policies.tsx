import { formatMoney } from '@/lib/money/format';
import type { toEntitlementPolicyResponse } from '@/lib/entitlements/policies';

type Policy = ReturnType<typeof toEntitlementPolicyResponse>;

/** What a policy allows, in words: "Unlimited", "100 units and $5.00 spend per period", "Denied". */
function accessText(policy: Policy, currency: string) {
  if (policy.allowed !== 'Limited') return policy.allowed;
  const limits = [
    policy.limit !== null ? `${policy.limit.toLocaleString('en-US')} units` : null,
    policy.limitAmount !== null ? `${formatMoney(policy.limitAmount, currency)} spend` : null,
  ].filter(Boolean);
  return `Limited: ${limits.join(' and ')}`;
}

/** A price's entitlement policies, one line per feature, under the price in the product page's price table. */
export function PricePolicies({ policies, currency, recurring }: { policies: Policy[]; currency: string; recurring: boolean }) {
  return (
    <ul className="space-y-1 text-sm" aria-label="Entitlement policies">
      {policies.map((policy) => (
        <li key={policy.id} data-policy-feature={policy.feature}>
          <span className="font-medium">{policy.feature}</span>
          <span className="text-slate-700">
            {' · '}
            {accessText(policy, currency)}
            {policy.allowed === 'Limited' ? (recurring ? ' per period' : ' in all') : ''}
          </span>
          {policy.creditGrantAmount ? (
            <span className="block text-xs text-slate-600">
              +{policy.creditGrantAmount.toLocaleString('en-US')} credits {recurring ? 'each paid period' : 'per purchase'}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
