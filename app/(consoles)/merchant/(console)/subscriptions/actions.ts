'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { sellerAccountId } from '../../session';
import { field, formAction, requireConfirmed, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';
import { runConsoleOnce } from '@/lib/server/web/console-once';
import { plainPhases } from '@/lib/db/phases';
import { formatMoney } from '@/lib/money/format';
import { cancelSubscription } from '@/lib/subscriptions/commands';
import { commandSubscriptionInPhases, createSubscriptionInPhases } from '@/lib/subscriptions/charging-requests';
import { previewPriceChange } from '@/lib/subscriptions/price-change';
import { CreateSubscriptionBody, PreviewBody } from '@/lib/subscriptions/schemas';

const detailPath = (id: string) => `/merchant/subscriptions/${id}`;

export async function cancelSubscriptionAction(_state: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('subscriptions:write');
    const id = field(form, 'subscriptionId');
    const immediate = field(form, 'immediate') === 'true';
    if (immediate) requireConfirmed(form, 'end this subscription now without a refund');
    await getDb().transaction((tx) => cancelSubscription(tx, merchantId, id, immediate, `console:${merchantId}`));
    revalidatePath(detailPath(id));
    return { notice: immediate ? 'The subscription has ended.' : 'The subscription will end at the close of the period.' };
  });
}

export async function commandSubscriptionAction(_state: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('subscriptions:write');
    const id = field(form, 'subscriptionId');
    const type = field(form, 'type') as 'ChangePrice' | 'Reactivate' | 'Pause' | 'Resume' | 'AddItem' | 'RemoveItem';
    const priceId = field(form, 'priceId');
    const result = await commandSubscriptionInPhases(
      plainPhases(getDb()),
      merchantId,
      id,
      { type, ...(priceId ? { priceId } : {}), expectedVersion: field(form, 'expectedVersion') || undefined, reason: field(form, 'reason') || undefined },
      `console:${merchantId}`,
    );
    if (result.declined) return { error: `The card was declined (${result.message}); nothing changed.` };
    revalidatePath(detailPath(id));
    const done = type === 'AddItem' ? 'Item added' : type === 'RemoveItem' ? 'Item removed' : `${type} applied`;
    return { notice: `${done} (version ${result.subscription.version}).` };
  });
}

/**
 * Subscribes a customer from its page (POST /api/Subscription): charges the saved card now unless the
 * price has a trial, so it runs once per form key, as the API does once per Idempotency-Key.
 */
export async function createSubscriptionAction(_state: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('subscriptions:write');
    const customerId = field(form, 'customerId');
    const items = form.getAll('itemPriceId').filter((value): value is string => typeof value === 'string' && value !== '');
    const body = parseForm(CreateSubscriptionBody, {
      customerId,
      priceId: field(form, 'priceId'),
      paymentMethodId: field(form, 'paymentMethodId') || undefined,
      ...(items.length > 0 ? { items: items.map((priceId) => ({ priceId })) } : {}),
    });
    const db = getDb();
    const { result } = await runConsoleOnce(db, { merchantId, key: field(form, 'formKey'), action: '/api/Subscription', body }, (phases) =>
      createSubscriptionInPhases(phases, merchantId, body, { actor: `console:${merchantId}` }),
    );
    if (result.declined) return { error: `The card was declined (${result.message}); no subscription was made.` };
    revalidatePath(`/merchant/customers/${customerId}`);
    return { notice: `Subscription ${result.subscription.id} started.`, result: { subscriptionId: result.subscription.id } };
  });
}

/** What changing to the chosen price charges now (POST /api/Subscription/{id}/Preview); nothing changes. */
export async function previewPriceChangeAction(_state: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('subscriptions:write');
    const { priceId } = parseForm(PreviewBody, { priceId: field(form, 'priceId') });
    const preview = await previewPriceChange(getDb(), merchantId, field(form, 'subscriptionId'), priceId);
    const money = (amount: number) => formatMoney(amount, preview.currency);
    const parts = preview.prorated
      ? [`${money(preview.remainingCharge)} for the rest of the period at the new price`, `less ${money(preview.unusedCredit)} unused on the current one`]
      : ['no proration'];
    if (preview.taxAmount > 0) parts.push(`${money(preview.taxAmount)} tax`);
    return { result: { priceId, dueNow: money(preview.amountDueNow), detail: parts.join(', ') } };
  });
}
