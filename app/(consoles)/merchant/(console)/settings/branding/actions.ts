'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { createCheckoutDesign, updateCheckoutDesign } from '@/lib/designs/designs';
import { CreateCheckoutDesignBody, UpdateCheckoutDesignBody } from '@/lib/designs/schemas';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';
import { sellerAction } from '../../../session';

const orNull = (form: FormData, name: string) => field(form, name) || null;

/** The form as the API's body: the uploaded file becomes `logoBase64`, as a backend would send it. */
async function designFields(form: FormData) {
  const file = form.get('logo');
  const uploaded = file instanceof File && file.size > 0 ? Buffer.from(await file.arrayBuffer()).toString('base64') : undefined;
  return {
    displayName: field(form, 'displayName'),
    logoBase64: uploaded ?? (form.get('removeLogo') ? null : undefined),
    brandColor: field(form, 'brandColor'),
    buttonTextColor: field(form, 'buttonTextColor'),
    accentColor: field(form, 'accentColor'),
    cornerStyle: field(form, 'cornerStyle'),
    buttonLabel: field(form, 'buttonLabel'),
    supportEmail: orNull(form, 'supportEmail'),
    supportUrl: orNull(form, 'supportUrl'),
    termsUrl: orNull(form, 'termsUrl'),
    privacyUrl: orNull(form, 'privacyUrl'),
    defaultLocale: field(form, 'defaultLocale') || null,
    isDefault: form.get('isDefault') === 'on',
  };
}

export async function createDesignAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const { merchantId } = await sellerAction('settings:write');
    const body = parseForm(CreateCheckoutDesignBody, await designFields(form));
    const design = await getDb().transaction((tx) => createCheckoutDesign(tx, merchantId, body));
    revalidatePath('/merchant/settings/branding');
    redirect(`/merchant/settings/branding/${design.id}?saved=1`);
  });
}

export async function updateDesignAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const { merchantId } = await sellerAction('settings:write');
    const designId = field(form, 'designId');
    const body = parseForm(UpdateCheckoutDesignBody, await designFields(form));
    await getDb().transaction((tx) => updateCheckoutDesign(tx, merchantId, designId, body));
    revalidatePath('/merchant/settings/branding');
    redirect(`/merchant/settings/branding/${designId}?saved=1`);
  });
}
