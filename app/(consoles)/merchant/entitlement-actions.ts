'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { invalidField } from '@/lib/errors';
import { findPriceRow } from '@/lib/catalog/prices';
import { createEntitlementPolicy } from '@/lib/entitlements/policies';
import { setEntitlementOverride } from '@/lib/entitlements/overrides';
import { CreateEntitlementPolicyBody, EntitlementOverrideBody } from '@/lib/entitlements/schemas';
import { createCreditGrant } from '@/lib/usage/credits';
import { recordUsage, reverseUsage } from '@/lib/usage/usage-records';
import { CreateCreditGrantBody, RecordUsageBody } from '@/lib/usage/schemas';
import { inTransaction, runConsoleOnce } from '@/lib/server/web/console-once';
import { parseMoney } from '@/lib/money/parse';
import { utcMoment, wholeNumber } from '@/lib/server/web/form-inputs';
import { field, formAction, requireConfirmed, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';
import { sellerAccountId } from './session';

// Entitlements, credits and usage decide what a subscription bills: the API's `entitlements:write`
// scope stands for `subscriptions:write` (lib/merchants/roles.ts), and so do these forms.

/** A spend limit typed in the currency's major units ("15.00"), as minor units. */
function spendLimit(form: FormData, currency: string): number | undefined {
  const text = field(form, 'limitAmount');
  if (!text) return undefined;
  const amount = parseMoney(text, currency);
  if (!amount) throw invalidField('limitAmount', `Enter an amount in ${currency} greater than zero, such as 15.00.`);
  return amount;
}

/** The fields an override and a policy share, as the form typed them. */
function entitlementInput(form: FormData, limitAmount: number | undefined) {
  return {
    feature: field(form, 'feature') || undefined,
    allowed: field(form, 'allowed'),
    limit: wholeNumber(form, 'limit', 'Units per period'),
    limitAmount,
  };
}

/** POST /api/Price/{priceId}/EntitlementPolicy, from the product page. */
export async function createEntitlementPolicyAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('subscriptions:write');
    const priceId = field(form, 'priceId');
    const db = getDb();
    const price = await findPriceRow(db, merchantId, priceId, 'priceId');
    const body = parseForm(CreateEntitlementPolicyBody, {
      ...entitlementInput(form, spendLimit(form, price.currency)),
      creditGrantAmount: wholeNumber(form, 'creditGrantAmount', 'Credits each period'),
    });
    const policy = await db.transaction((tx) => createEntitlementPolicy(tx, merchantId, priceId, body));
    revalidatePath(`/merchant/products/${price.productId}`);
    return { notice: `Policy for “${policy.feature}” added to the price.` };
  });
}

/** POST /api/Customer/{customerId}/EntitlementOverride, from the customer page. */
export async function setEntitlementOverrideAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('subscriptions:write');
    const customerId = field(form, 'customerId');
    const currency = field(form, 'currency');
    const body = parseForm(EntitlementOverrideBody, entitlementInput(form, currency ? spendLimit(form, currency) : undefined));
    const { override, created } = await getDb().transaction((tx) => setEntitlementOverride(tx, merchantId, customerId, body));
    revalidatePath(`/merchant/customers/${customerId}`);
    return { notice: `${created ? 'Override set' : 'Override replaced'}: “${override.feature}” is ${override.allowed}.` };
  });
}

/** POST /api/Customer/{customerId}/CreditGrant, from the customer page. */
export async function createCreditGrantAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('subscriptions:write');
    const customerId = field(form, 'customerId');
    const body = parseForm(CreateCreditGrantBody, {
      feature: field(form, 'feature') || undefined,
      amount: wholeNumber(form, 'amount', 'Credits'),
      expiresAt: utcMoment(form, 'expiresAt'),
      reason: field(form, 'reason'),
    });
    const grant = await getDb().transaction((tx) => createCreditGrant(tx, merchantId, customerId, body));
    revalidatePath(`/merchant/customers/${customerId}`);
    return { notice: `Granted ${grant.amount} “${grant.feature}” credits.` };
  });
}

/** POST /api/Usage/{usageId}/Reverse, from the Usage page: the record stops counting (and billing). */
export async function reverseUsageAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('subscriptions:write');
    const usageId = field(form, 'usageId');
    requireConfirmed(form, `reverse usage record ${usageId}`);
    await getDb().transaction((tx) => reverseUsage(tx, merchantId, usageId));
    // The row's badge shows it reversed (its form is gone, so no notice would stay in view).
    revalidatePath('/merchant/usage');
  });
}

/**
 * POST /api/Usage, from the Usage page: usage the backend missed. It counts toward limits and bills,
 * so it is recorded once per form key (and once per "your id", as the API does).
 */
export async function recordUsageAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('subscriptions:write');
    const body = parseForm(RecordUsageBody, {
      customerId: field(form, 'customerId'),
      feature: field(form, 'feature') || undefined,
      quantity: wholeNumber(form, 'quantity', 'Quantity'),
      id: field(form, 'usageExternalId') || undefined,
    });
    const db = getDb();
    const { result } = await runConsoleOnce(
      db,
      { merchantId, key: field(form, 'formKey'), action: '/api/Usage', body },
      inTransaction((tx) => recordUsage(tx, merchantId, body)),
    );
    revalidatePath('/merchant/usage');
    return { notice: `${result.created ? 'Recorded' : 'Already recorded'}: ${result.usage.quantity} ${result.usage.feature} for ${result.usage.customerId}.` };
  });
}
