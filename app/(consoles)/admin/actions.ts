'use server';

import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { signInAdmin } from '@/lib/auth/sign-in';
import { AdminLoginBody, SuspensionBody } from '@/lib/auth/schemas';
import { reinstateMerchant, suspendMerchant } from '@/lib/operator/suspension';
import { settlePaymentAfterReview, SettleReviewedPaymentBody } from '@/lib/operator/payment-review';
// Settling a reviewed payment applies its kind of money move: every kind is registered in this process.
import '@/lib/server/jobs/money-move-kinds';
import { endConsoleSession, requestClient, requireSession, storeSession } from '@/lib/server/web/session';
import { field, formAction, requireConfirmed, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';

export async function signInAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const body = parseForm(AdminLoginBody, { name: field(form, 'name'), password: form.get('password') });
    await storeSession('admin', await signInAdmin(getDb(), { ...body, client: await requestClient() }));
    redirect('/admin');
  });
}

export async function signOutAction(): Promise<void> {
  await endConsoleSession('admin');
  redirect('/admin/sign-in');
}

export async function setMerchantStatusAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    await requireSession('admin');
    const merchantId = field(form, 'merchantId');
    const suspending = field(form, 'status') === 'suspended';
    const body = parseForm(SuspensionBody, { reason: field(form, 'reason') || undefined });
    await getDb().transaction((tx) => (suspending ? suspendMerchant : reinstateMerchant)(tx, merchantId, body));
    revalidatePath('/admin');
    revalidatePath(`/admin/sellers/${merchantId}`);
    // A notice clears the form, so the next change starts with an empty reason.
    return { notice: suspending ? 'Seller suspended.' : 'Seller reinstated.' };
  });
}

/** A person checked the processor: settles a `needs_review` payment as charged or not (audited). */
export async function settleReviewedPaymentAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    await requireSession('admin');
    const body = parseForm(SettleReviewedPaymentBody, { paymentId: field(form, 'paymentId'), outcome: field(form, 'outcome') });
    requireConfirmed(form, body.outcome === 'succeeded' ? 'settle this payment as charged' : 'settle this payment as not charged');
    await settlePaymentAfterReview(getDb(), body);
    revalidatePath('/admin/payments');
    revalidatePath('/admin/overview');
    // The payment leaves the list (and its form with it): the notice is the page's.
    redirect(`/admin/payments?${new URLSearchParams({ settled: body.paymentId, outcome: body.outcome })}`);
  });
}
