'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { invalidField } from '@/lib/errors';
import { createPaymentLink, duplicatePaymentLink, transitionPaymentLink } from '@/lib/payment-links/payment-links';
import { CreatePaymentLinkBody } from '@/lib/payment-links/schemas';
import { normalizeCurrency } from '@/lib/money/currencies';
import { parseMoney } from '@/lib/money/parse';
import { parseUtcDateTimeLocal } from '@/lib/server/web/form-dates';
import { sellerAccountId } from '../../session';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { wholeNumber } from '@/lib/server/web/form-inputs';
import { adjustableQuantityField } from '@/lib/server/web/form-adjustable-quantity';
import { parseForm } from '@/lib/server/web/parse-form';

export async function createPaymentLinkAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    const priceId = field(form, 'priceId');
    const quantity = wholeNumber(form, 'quantity', 'Quantity') ?? 1;
    let item: Record<string, unknown>;
    if (priceId) {
      const items = form.getAll('items').filter((value): value is string => typeof value === 'string' && value !== '');
      item = {
        priceId,
        ...(items.length > 0 ? { items: items.map((meteredPriceId) => ({ priceId: meteredPriceId })) } : {}),
        ...(field(form, 'name') ? { name: field(form, 'name') } : {}),
      };
    } else {
      const currency = normalizeCurrency(field(form, 'currency'));
      if (!currency) throw invalidField('currency', 'Enter a three-letter ISO 4217 code, such as USD or EUR.');
      const unitAmount = parseMoney(field(form, 'unitAmount'), currency);
      if (unitAmount === undefined) throw invalidField('unitAmount', `Enter an amount in ${currency}, such as ${currency === 'JPY' ? '1500' : '12.00'}.`);
      item = {
        unitAmount,
        currency,
        name: field(form, 'name') || undefined,
        ...(field(form, 'description') ? { description: field(form, 'description') } : {}),
      };
    }
    const expiresText = field(form, 'expiresAt');
    const expiresAt = parseUtcDateTimeLocal(expiresText);
    if (expiresText && !expiresAt) throw invalidField('expiresAt', 'Enter a date and time.');
    const body = parseForm(CreatePaymentLinkBody, {
      ...item,
      quantity,
      adjustableQuantity: adjustableQuantityField(form),
      singleUse: form.get('singleUse') === 'on',
      maxCompletions: wholeNumber(form, 'maxCompletions', 'Maximum payments'),
      expiresAt: expiresAt?.toISOString(),
      successUrl: field(form, 'successUrl') || undefined,
      designId: field(form, 'designId') || undefined,
    });
    const link = await getDb().transaction((tx) => createPaymentLink(tx, merchantId, body));
    revalidatePath('/merchant/payment-links');
    return { notice: `Payment link “${link.name}” created.`, result: { url: link.url } };
  });
}

const TRANSITIONS = { disable: true, enable: true, archive: true } as const;

export async function paymentLinkStateAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    const id = field(form, 'paymentLinkId');
    const action = field(form, 'action');
    const db = getDb();
    if (action === 'duplicate') {
      // The copy appears at the top of the list (newest first); no notice squeezed into the row.
      await db.transaction((tx) => duplicatePaymentLink(tx, merchantId, id));
      revalidatePath('/merchant/payment-links');
      return;
    }
    if (!Object.hasOwn(TRANSITIONS, action)) throw invalidField('action', 'Unknown action.');
    const key = action as keyof typeof TRANSITIONS;
    // The row's badge and buttons show the new state.
    await db.transaction((tx) => transitionPaymentLink(tx, merchantId, id, key));
    revalidatePath('/merchant/payment-links');
    revalidatePath(`/merchant/payment-links/${id}`);
  });
}
