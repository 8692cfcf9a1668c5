'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { AccountSettingsBody, updateAccountSettings } from '@/lib/merchants/settings';
import { createTaxRate, updateTaxRate } from '@/lib/tax/tax-rates';
import { CreateTaxRateBody } from '@/lib/tax/schemas';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';
import { sellerAccountId, sellerAction } from '../../session';

const PATH = '/merchant/tax-rates';

export async function createTaxRateAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    const body = parseForm(CreateTaxRateBody, {
      displayName: field(form, 'displayName'),
      percentage: field(form, 'percentage'),
      inclusive: field(form, 'inclusive') === 'true',
      country: field(form, 'country') || null,
      jurisdiction: field(form, 'jurisdiction') || null,
    });
    const rate = await getDb().transaction((tx) => createTaxRate(tx, merchantId, body));
    revalidatePath(PATH);
    return { notice: `Tax rate “${rate.displayName} ${rate.percentage}%” created.` };
  });
}

export async function setTaxRateActiveAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    await getDb().transaction((tx) => updateTaxRate(tx, merchantId, field(form, 'taxRateId'), { active: field(form, 'active') === 'true' }));
    revalidatePath(PATH);
  });
}

/** The seller's default rates: those ticked, in the order listed. */
export async function setDefaultTaxRatesAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const { merchantId } = await sellerAction('settings:write');
    const body = parseForm(AccountSettingsBody, { defaultTaxRateIds: form.getAll('defaultTaxRateIds').map(String) });
    await getDb().transaction((tx) => updateAccountSettings(tx, merchantId, body));
    revalidatePath(PATH);
    return { notice: 'Default tax rates saved.' };
  });
}
