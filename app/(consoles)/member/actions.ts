'use server';

import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { requestMemberSignInLink, verifyMemberSignInLink } from '@/lib/auth/magic-links';
import { MemberLoginBody, MemberVerifyBody } from '@/lib/auth/schemas';
import { config } from '@/lib/config';
import { safeWalletReturnPath } from '@/lib/auth/return-path';
import { invalidField } from '@/lib/errors';
import { customerText } from '@/lib/i18n/customer-text';
import { actionLocale } from '@/lib/server/web/page-locale';
import { endConsoleSession, requestClient, storeSession } from '@/lib/server/web/session';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';

/** The sign-in email is written in the language of the page it was asked for on. */
export async function requestLinkAction(_: FormState, form: FormData): Promise<FormState> {
  const text = customerText(await actionLocale(field(form, 'locale')));
  return formAction(async () => {
    const parsed = MemberLoginBody.safeParse({ email: field(form, 'email') });
    if (!parsed.success) throw invalidField('email', text.t('checkout.errors.email'));
    const email = parsed.data.email;
    await requestMemberSignInLink(getDb(), {
      email,
      client: await requestClient(),
      returnPath: safeWalletReturnPath(field(form, 'next')),
      locale: text.locale,
    });
    return { notice: text.t(config.isProduction ? 'wallet.linkSent' : 'wallet.linkSentDev', { email }) };
  }, text.formWords());
}

export async function verifyLinkAction(_: FormState, form: FormData): Promise<FormState> {
  const text = customerText(await actionLocale(field(form, 'locale')));
  return formAction(async () => {
    const body = parseForm(MemberVerifyBody, { loginToken: field(form, 'loginToken') });
    await storeSession(
      'member',
      await verifyMemberSignInLink(getDb(), { loginToken: body.loginToken, client: await requestClient(), invalidMessage: text.t('wallet.invalidLink') }),
    );
    redirect(safeWalletReturnPath(field(form, 'next')) ?? '/member');
  }, text.formWords());
}

export async function signOutAction(): Promise<void> {
  await endConsoleSession('member');
  redirect('/member/sign-in');
}
