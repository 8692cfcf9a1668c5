'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { sellerAccountId } from '../../session';
import { field, formAction, requireConfirmed, type FormState } from '@/lib/web/form-state';
import { plainPhases } from '@/lib/db/phases';
import { cancelSubscription } from '@/lib/subscriptions/commands';
import { commandSubscriptionInPhases } from '@/lib/subscriptions/resume';

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
