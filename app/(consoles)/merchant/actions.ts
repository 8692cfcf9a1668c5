'use server';

import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { ApiError, invalidField } from '@/lib/errors';
import { signInMerchant, registerMerchant } from '@/lib/auth/sign-in';
import { createMerchantApiKey, revokeMerchantApiKey } from '@/lib/auth/api-keys';
import { CreateApiKeyBody, LoginTwoFactorBody, MerchantLoginBody, MerchantRegisterBody } from '@/lib/auth/schemas';
import { completeTwoFactorSignIn } from '@/lib/auth/two-factor';
import { clearTwoFactorChallenge, readTwoFactorChallenge, storeTwoFactorChallenge } from '@/lib/server/web/two-factor-cookie';
import { createProduct, updateProduct } from '@/lib/catalog/products';
import { createPrice, updatePrice } from '@/lib/catalog/prices';
import { CreatePriceBody, CreateProductBody } from '@/lib/catalog/schemas';
import { parseMoney } from '@/lib/money/parse';
import { normalizeCurrency } from '@/lib/money/currencies';
import { endConsoleSession, requestClient, storeSession } from '@/lib/server/web/session';
import { sellerAccountId, sellerAction } from './session';
import { field, formAction, requireConfirmed, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';
import { readMeteredFields } from '@/components/console/price-form/metered-input';

// Every action re-checks the session and takes the seller from it, never from the form.

export async function signInAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const body = parseForm(MerchantLoginBody, {
      email: field(form, 'email'),
      password: form.get('password'),
    });
    const outcome = await signInMerchant(getDb(), { ...body, client: await requestClient(), allowTwoFactorSetup: true });
    if (outcome.kind === 'challenge') {
      await storeTwoFactorChallenge(outcome.challengeToken, outcome.expiresIn);
      redirect('/merchant/sign-in/two-factor');
    }
    await storeSession('merchant', outcome.tokens);
    redirect('/merchant');
  });
}

export async function twoFactorSignInAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const challengeToken = await readTwoFactorChallenge();
    if (!challengeToken) redirect('/merchant/sign-in');
    const body = parseForm(LoginTwoFactorBody, { challengeToken, code: field(form, 'code') });
    await storeSession('merchant', await completeTwoFactorSignIn(getDb(), { ...body, client: await requestClient() }));
    await clearTwoFactorChallenge();
    redirect('/merchant');
  });
}

export async function signUpAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const body = parseForm(MerchantRegisterBody, {
      email: field(form, 'email'),
      password: form.get('password'),
      name: field(form, 'name'),
      accountType: field(form, 'accountType'),
    });
    const { tokens } = await registerMerchant(getDb(), { ...body, client: await requestClient() });
    await storeSession('merchant', tokens);
    redirect('/merchant');
  });
}

export async function signOutAction(): Promise<void> {
  await endConsoleSession('merchant');
  redirect('/merchant/sign-in');
}

export async function createProductAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    const body = parseForm(CreateProductBody, { name: field(form, 'name'), description: field(form, 'description') || null });
    const product = await getDb().transaction((tx) => createProduct(tx, merchantId, body));
    redirect(`/merchant/products/${product.id}`);
  });
}

export async function setProductActiveAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    const productId = field(form, 'productId');
    const active = field(form, 'active') === 'true';
    if (!active) requireConfirmed(form, 'deactivate this product');
    await getDb().transaction((tx) => updateProduct(tx, merchantId, productId, { active }));
    revalidatePath(`/merchant/products/${productId}`);
  });
}

export async function createPriceAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    const currency = normalizeCurrency(field(form, 'currency'));
    if (!currency) throw invalidField('currency', 'Enter a three-letter ISO 4217 code, such as USD or EUR.');
    const type = field(form, 'type');
    const recurring = type === 'Recurring';
    const metered = recurring && field(form, 'usageType') === 'metered';
    let pricing: Record<string, unknown>;
    if (metered) {
      const { fields, problems } = readMeteredFields((name) => field(form, name), currency);
      if (problems.length > 0) throw new ApiError('VALIDATION_FAILED', problems[0]!.message, { errors: problems });
      pricing = { usageType: 'metered', ...fields };
    } else {
      const amount = parseMoney(field(form, 'amount'), currency);
      if (amount === undefined) throw invalidField('amount', `Enter an amount in ${currency}, such as 12.00.`);
      pricing = { amount };
    }
    const taxRateIds = form.getAll('taxRateIds').map(String);
    const body = parseForm(CreatePriceBody, {
      productId: field(form, 'productId'),
      type,
      currency,
      ...pricing,
      ...(taxRateIds.length > 0 ? { taxRateIds } : {}),
      ...(recurring
        ? {
            interval: field(form, 'interval'),
            intervalCount: Number(field(form, 'intervalCount') || 1),
            ...(field(form, 'trialDays') && !metered ? { trialDays: Number(field(form, 'trialDays')) } : {}),
          }
        : {}),
    });
    await getDb().transaction((tx) => createPrice(tx, merchantId, body));
    revalidatePath(`/merchant/products/${body.productId}`);
    return { notice: 'Price created.' };
  });
}

export async function setPriceActiveAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    const price = await getDb().transaction((tx) => updatePrice(tx, merchantId, field(form, 'priceId'), { active: field(form, 'active') === 'true' }));
    revalidatePath(`/merchant/products/${price.productId}`);
  });
}

export async function createApiKeyAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const access = await sellerAction('developers:write');
    const body = parseForm(CreateApiKeyBody, { name: field(form, 'name'), scopes: form.getAll('scopes') });
    // The role bounds the scopes: a forged form asking for more is refused like the API would.
    const key = await getDb().transaction((tx) => createMerchantApiKey(tx, access, body));
    revalidatePath('/merchant/developers/api-keys');
    // The secret goes to this one answer and nowhere else (not the page, not a cookie).
    return { result: { id: key.id, name: key.name, secret: key.secret } };
  });
}

export async function revokeApiKeyAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('developers:write');
    await getDb().transaction((tx) => revokeMerchantApiKey(tx, merchantId, field(form, 'apiKeyId')));
    revalidatePath('/merchant/developers/api-keys');
  });
}
