import type { ReactNode } from 'react';
import { priceTerms, type PriceTermsInput } from '@/lib/catalog/price-terms';
import { formatConsoleDate } from '@/lib/server/web/console-time';
import { ActionForm } from '@/components/ui/action-form';
import { Card, EmptyState } from '@/components/ui/layout';
import { SelectField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { commandSubscriptionAction } from '@/app/(consoles)/merchant/(console)/subscriptions/actions';

/**
 * A subscription's metered items (usage billed in arrears at each period end), each with its
 * price's terms, and the AddItem / RemoveItem commands (the API's, through the console's action).
 * `hidden` carries the subscription id and expected version; null when it can no longer change.
 */
export function SubscriptionItems({
  items,
  ownPriceId,
  addable,
  hidden,
  timeZone,
}: {
  items: { id: string; priceId: string; feature: string; createdAt: string; price: (PriceTermsInput & { productName: string }) | null }[];
  ownPriceId: string;
  addable: { id: string; label: string }[];
  hidden: ReactNode | null;
  timeZone: string;
}) {
  const removable = items.filter((item) => item.priceId !== ownPriceId);
  return (
    <Card title="Metered items" className="lg:col-span-2">
      {items.length === 0 ? (
        <EmptyState title="No metered items">Add a metered price to bill a feature’s usage in arrears at each period end.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Metered items">
          {items.map((item) => (
            <li key={item.id} className="py-2 text-sm" data-item-feature={item.feature}>
              <span className="font-medium">{item.price ? `${item.price.productName} · ${item.feature}` : item.feature}</span>
              <span className="block text-slate-700">{item.price ? priceTerms(item.price) : item.priceId}</span>
              <span className="block font-mono text-xs break-all text-slate-500">
                {item.priceId} · since {formatConsoleDate(item.createdAt, timeZone)}
                {item.priceId === ownPriceId ? ' · the subscription’s own price' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      {hidden ? (
        // The forms stay on the page after they act, so their answer shows even when no price is left to choose.
        <div className="mt-4 grid gap-4 md:grid-cols-2">
          <ActionForm action={commandSubscriptionAction} className="flex flex-wrap items-end gap-2" ariaLabel="Add metered item">
            {hidden}
            <input type="hidden" name="type" value="AddItem" />
            {addable.length > 0 ? (
              <>
                <SelectField
                  label="Add a metered price"
                  name="priceId"
                  options={addable.map((p) => ({ value: p.id, label: p.label }))}
                  className="min-w-0 flex-1"
                />
                <SubmitButton variant="secondary">Add item</SubmitButton>
              </>
            ) : (
              <p className="text-sm text-slate-600">No other active metered price bills in this subscription’s currency and cadence.</p>
            )}
          </ActionForm>
          <ActionForm action={commandSubscriptionAction} className="flex flex-wrap items-end gap-2" ariaLabel="Remove metered item">
            {hidden}
            <input type="hidden" name="type" value="RemoveItem" />
            {removable.length > 0 ? (
              <>
                <SelectField
                  label="Remove an item"
                  name="priceId"
                  options={removable.map((item) => ({ value: item.priceId, label: `${item.feature} (${item.priceId})` }))}
                  className="min-w-0 flex-1"
                />
                <SubmitButton variant="secondary">Remove item</SubmitButton>
              </>
            ) : null}
          </ActionForm>
        </div>
      ) : null}
      {items.length > 0 ? <p className="mt-3 text-xs text-slate-600">A removed item stops billing now; its usage so far is billed at the period end.</p> : null}
    </Card>
  );
}
