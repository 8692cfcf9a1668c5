'use server';

import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { requestMemberSignInLink, verifyMemberSignInLink } from '@/lib/auth/magic-links';
import { MemberLoginBody, MemberVerifyBody } from '@/lib/auth/schemas';
import { config } from '@/lib/config';
import { safeWalletReturnPath } from '@/lib/auth/return-path';
import { endConsoleSession, requestClient, storeSession } from '@/lib/web/session';
import { field, formAction, type FormState } from '@/lib/web/form-state';
import { parseForm } from '@/lib/web/parse-form';

export async function requestLinkAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const body = parseForm(MemberLoginBody, { email: field(form, 'email') });
    await requestMemberSignInLink(getDb(), { email: body.email, client: await requestClient(), returnPath: safeWalletReturnPath(field(form, 'next')) });
    const devHint = config.isProduction ? '' : ' (Running locally: open the dev mailbox at /dev/mailbox.)';
    return { notice: `If ${body.email} can receive mail, a sign-in link is on its way. It works once, for 15 minutes.${devHint}` };
  });
}

export async function verifyLinkAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const body = parseForm(MemberVerifyBody, { loginToken: field(form, 'loginToken') });
    await storeSession('member', await verifyMemberSignInLink(getDb(), { loginToken: body.loginToken, client: await requestClient() }));
    redirect(safeWalletReturnPath(field(form, 'next')) ?? '/member');
  });
}

export async function signOutAction(): Promise<void> {
  await endConsoleSession('member');
  redirect('/member/sign-in');
}
