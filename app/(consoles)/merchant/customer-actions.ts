'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { createCustomer, updateCustomer } from '@/lib/customers/customers';
import { createCustomValue, updateCustomValue } from '@/lib/customers/custom-values';
import { CreateCustomerBody, CustomValueBody, UpdateCustomerBody } from '@/lib/customers/schemas';
import { parseMetadataLines } from '@/lib/server/web/form-metadata';
import { field, formAction, requireConfirmed, type FormState } from '@/lib/server/web/form-state';
import { makeDefaultPaymentMethod, removePaymentMethod } from '@/lib/saved-cards/saved-cards';
import { parseForm } from '@/lib/server/web/parse-form';
import { sellerAccountId } from './session';

// The customers' forms: the same schemas and domain functions as POST /api/Customer,
// PUT /api/Customer/{id} and the CustomValue endpoints, with the role's `customers:write` checked on every submit.

/** Creates a customer (POST /api/Customer) and opens its page. */
export async function createCustomerAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('customers:write');
    const body = parseForm(CreateCustomerBody, {
      name: field(form, 'name') || undefined,
      email: field(form, 'email') || undefined,
      externalId: field(form, 'externalId') || undefined,
      metadata: parseMetadataLines(String(form.get('metadata') ?? '')),
    });
    const customer = await getDb().transaction((tx) => createCustomer(tx, merchantId, body));
    revalidatePath('/merchant/customers');
    // formAction lets the redirect through (unstable_rethrow).
    redirect(`/merchant/customers/${customer.id}?created=1`);
  });
}

export async function updateCustomerAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('customers:write');
    const customerId = field(form, 'customerId');
    const body = parseForm(UpdateCustomerBody, {
      name: field(form, 'name') || null,
      email: field(form, 'email') || null,
      externalId: field(form, 'externalId') || null,
      status: field(form, 'status'),
      metadata: parseMetadataLines(String(form.get('metadata') ?? '')),
    });
    await getDb().transaction((tx) => updateCustomer(tx, merchantId, customerId, body));
    revalidatePath(`/merchant/customers/${customerId}`);
    return { notice: 'Customer saved.' };
  });
}

/** Sets a custom value: changes the key's value when it exists, else adds it (the API's PUT, else POST). */
export async function setCustomValueAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('customers:write');
    const customerId = field(form, 'customerId');
    const body = parseForm(CustomValueBody, { key: field(form, 'key'), value: String(form.get('value') ?? '') });
    const created = await getDb().transaction(async (tx) => {
      try {
        await updateCustomValue(tx, merchantId, customerId, body);
        return false;
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'NOT_FOUND' && error.options.errors?.[0]?.path === 'key')) throw error;
        await createCustomValue(tx, merchantId, customerId, body);
        return true;
      }
    });
    revalidatePath(`/merchant/customers/${customerId}`);
    return { notice: created ? `Custom value “${body.key}” added.` : `Custom value “${body.key}” changed.` };
  });
}

/** A saved card's Make default (POST …/PaymentMethod/{id}/Default) or Remove (DELETE …/PaymentMethod/{id}). */
export async function paymentMethodAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('customers:write');
    const customerId = field(form, 'customerId');
    const paymentMethodId = field(form, 'paymentMethodId');
    const remove = field(form, 'action') === 'remove';
    if (remove) requireConfirmed(form, 'remove this card');
    await getDb().transaction((tx) =>
      (remove ? removePaymentMethod : makeDefaultPaymentMethod)(tx, merchantId, customerId, paymentMethodId, `console:${merchantId}`),
    );
    // The list shows the new default, or the card gone.
    revalidatePath(`/merchant/customers/${customerId}`);
  });
}
