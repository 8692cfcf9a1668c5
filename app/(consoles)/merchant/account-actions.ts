'use server';

import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { config } from '@/lib/config';
import { requestPasswordReset, resetPassword } from '@/lib/auth/password-reset';
import { resendVerificationEmail, verifySellerEmail } from '@/lib/auth/email-verification';
import { sellerUserOf } from '@/lib/auth/seller-principal';
import { PasswordResetBody, PasswordResetConfirmBody, VerifyEmailBody } from '@/lib/auth/schemas';
import { acceptInvitation } from '@/lib/team/team';
import { AcceptInvitationBody } from '@/lib/team/schemas';
import { requestClient, requireSession, storeSession } from '@/lib/server/web/session';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';

const devMailboxHint = () => (config.isProduction ? '' : ' (Running locally: open the dev mailbox at /dev/mailbox.)');

export async function forgotPasswordAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const body = parseForm(PasswordResetBody, { email: field(form, 'email') });
    await requestPasswordReset(getDb(), { email: body.email, client: await requestClient() });
    return { notice: `If ${body.email} belongs to a seller account, a reset link is on its way. It works once, for 30 minutes.${devMailboxHint()}` };
  });
}

export async function resetPasswordAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const body = parseForm(PasswordResetConfirmBody, { resetToken: field(form, 'resetToken'), password: form.get('password') });
    await resetPassword(getDb(), { ...body, client: await requestClient() });
    redirect('/merchant/sign-in?reset=1');
  });
}

export async function verifyEmailAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const body = parseForm(VerifyEmailBody, { verificationToken: field(form, 'verificationToken') });
    const user = await verifySellerEmail(getDb(), { ...body, client: await requestClient() });
    return { notice: `Thank you: ${user.email} is confirmed.` };
  });
}

export async function resendVerificationAction(_: FormState): Promise<FormState> {
  return formAction(async () => {
    await resendVerificationEmail(getDb(), sellerUserOf(await requireSession('merchant')));
    return { notice: `A new verification link is on its way; the previous one no longer works.${devMailboxHint()}` };
  });
}

export async function acceptInvitationAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const body = parseForm(AcceptInvitationBody, {
      invitationToken: field(form, 'invitationToken'),
      name: field(form, 'name'),
      password: form.get('password'),
    });
    const { tokens } = await acceptInvitation(getDb(), { ...body, client: await requestClient() });
    await storeSession('merchant', tokens);
    redirect('/merchant');
  });
}
