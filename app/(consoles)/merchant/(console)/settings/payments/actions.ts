'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { connectStripeAccount, disconnectStripeAccount, StripeConnectionBody } from '@/lib/processors/stripe-connections';
import { field, formAction, requireConfirmed, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';
import { sellerAction } from '../../../session';

export async function connectStripeAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const { merchantId, user } = await sellerAction('settings:write');
    const body = parseForm(StripeConnectionBody, { secretKey: field(form, 'secretKey'), publishableKey: field(form, 'publishableKey') });
    await connectStripeAccount(getDb(), merchantId, user.id, body);
    revalidatePath('/merchant/settings/payments');
    redirect('/merchant/settings/payments?connected=1');
  });
}

export async function disconnectStripeAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const { merchantId } = await sellerAction('settings:write');
    requireConfirmed(form, 'disconnect the Stripe account');
    await disconnectStripeAccount(getDb(), merchantId);
    revalidatePath('/merchant/settings/payments');
    redirect('/merchant/settings/payments?disconnected=1');
  });
}
