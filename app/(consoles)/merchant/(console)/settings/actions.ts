'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { invalidField } from '@/lib/errors';
import { AccountSettingsBody, LIFECYCLE_EMAIL_OPTIONS, updateAccountSettings } from '@/lib/merchants/settings';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';
import { sellerAction } from '../../session';

const orNull = (form: FormData, name: string) => field(form, name) || null;

export async function saveSettingsAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const { merchantId } = await sellerAction('settings:write');
    // Address errors are shown on their own fields (the form's field names are flat).
    if (field(form, 'country') && !/^[A-Za-z]{2}$/.test(field(form, 'country')))
      throw invalidField('country', 'A two-letter ISO 3166-1 country code, such as US or FR.');
    const body = parseForm(AccountSettingsBody, {
      name: field(form, 'name'),
      accountType: field(form, 'accountType'),
      supportEmail: orNull(form, 'supportEmail'),
      supportUrl: orNull(form, 'supportUrl'),
      address: {
        line1: orNull(form, 'line1'),
        line2: orNull(form, 'line2'),
        city: orNull(form, 'city'),
        region: orNull(form, 'region'),
        postalCode: orNull(form, 'postalCode'),
        country: orNull(form, 'country'),
      },
      timeZone: field(form, 'timeZone'),
      sendReceipts: form.get('sendReceipts') === 'on',
      collectBillingAddress: form.get('collectBillingAddress') === 'on',
      ...Object.fromEntries(LIFECYCLE_EMAIL_OPTIONS.map(({ name }) => [name, form.get(name) === 'on'])),
      legalName: orNull(form, 'legalName'),
      taxId: orNull(form, 'taxId'),
      invoiceFooter: orNull(form, 'invoiceFooter'),
      invoicePrefix: orNull(form, 'invoicePrefix'),
    });
    await getDb().transaction((tx) => updateAccountSettings(tx, merchantId, body));
    revalidatePath('/merchant', 'layout');
    // A fresh page (not a form reset) shows the saved values as the new defaults.
    redirect('/merchant/settings?saved=1');
  });
}
