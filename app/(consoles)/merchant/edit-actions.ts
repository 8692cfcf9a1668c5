'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { invalidField } from '@/lib/errors';
import { updateProduct } from '@/lib/catalog/products';
import { UpdateProductBody } from '@/lib/catalog/schemas';
import { updatePaymentLink } from '@/lib/payment-links/payment-links';
import { UpdatePaymentLinkBody } from '@/lib/payment-links/schemas';
import { updateWebhookEndpoint } from '@/lib/webhooks/endpoints';
import { UpdateWebhookEndpointBody } from '@/lib/webhooks/schemas';
import { parseUtcDateTimeLocal } from '@/lib/server/web/form-dates';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { wholeNumber } from '@/lib/server/web/form-inputs';
import { adjustableQuantityField } from '@/lib/server/web/form-adjustable-quantity';
import { parseForm } from '@/lib/server/web/parse-form';
import { sellerAccountId } from './session';

// Edit forms of the seller console. Each re-checks the session and role (sellerAccountId), takes
// the seller from the session, validates with the API's update schema and calls the same domain
// function as the API's PUT, in one transaction. An update is idempotent, so a double submit
// writes the same values twice and needs no form key.

export async function updateProductAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    const productId = field(form, 'productId');
    const body = parseForm(UpdateProductBody, {
      name: field(form, 'name'),
      description: field(form, 'description') || null,
      active: form.get('active') === 'on',
    });
    const product = await getDb().transaction((tx) => updateProduct(tx, merchantId, productId, body));
    revalidatePath(`/merchant/products/${productId}`);
    return { notice: `Product “${product.name}” saved.` };
  });
}

export async function updatePaymentLinkAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    const paymentLinkId = field(form, 'paymentLinkId');
    const expiresText = field(form, 'expiresAt');
    const expiresAt = parseUtcDateTimeLocal(expiresText);
    if (expiresText && !expiresAt) throw invalidField('expiresAt', 'Enter a date and time.');
    const body = parseForm(UpdatePaymentLinkBody, {
      name: field(form, 'name'),
      quantity: wholeNumber(form, 'quantity', 'Quantity'),
      adjustableQuantity: adjustableQuantityField(form),
      maxCompletions: wholeNumber(form, 'maxCompletions', 'Maximum payments') ?? null,
      expiresAt: expiresAt?.toISOString() ?? null,
      successUrl: field(form, 'successUrl') || null,
      designId: field(form, 'designId') || null,
    });
    const link = await getDb().transaction((tx) => updatePaymentLink(tx, merchantId, paymentLinkId, body));
    revalidatePath('/merchant/payment-links');
    revalidatePath(`/merchant/payment-links/${paymentLinkId}`);
    return { notice: `Payment link “${link.name}” saved.` };
  });
}

export async function updateWebhookEndpointAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('developers:write');
    const endpointId = field(form, 'endpointId');
    const chosen = form.getAll('events').filter((value): value is string => typeof value === 'string');
    if (chosen.length === 0) throw invalidField('events', 'Choose at least one event type, or all events.');
    const body = parseForm(UpdateWebhookEndpointBody, {
      url: field(form, 'url'),
      events: chosen.includes('*') ? ['*'] : chosen,
      description: field(form, 'description') || null,
    });
    await getDb().transaction((tx) => updateWebhookEndpoint(tx, merchantId, endpointId, body));
    revalidatePath(`/merchant/webhooks/${endpointId}`);
    return { notice: 'Endpoint saved. New events are sent with these settings.' };
  });
}
