'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { beginTwoFactorSetup, confirmTwoFactorSetup, disableTwoFactor, regenerateRecoveryCodes } from '@/lib/auth/two-factor';
import { setTeamTwoFactorRequirement } from '@/lib/team/team';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { sellerAction } from '../../session';

const SECURITY = '/merchant/security';
const userRef = async () => {
  const access = await sellerAction('security');
  return { merchantId: access.merchantId, userId: access.user.id };
};

export async function beginTwoFactorAction(_: FormState): Promise<FormState> {
  return formAction(async () => {
    await beginTwoFactorSetup(getDb(), await userRef());
    revalidatePath(SECURITY);
  });
}

export async function confirmTwoFactorAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const result = await confirmTwoFactorSetup(getDb(), await userRef(), field(form, 'code'));
    // The page is rendered again as "on"; its two-factor card keeps showing the codes answered here.
    revalidatePath(SECURITY);
    return { result };
  });
}

export async function regenerateRecoveryCodesAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => ({ result: await regenerateRecoveryCodes(getDb(), await userRef(), field(form, 'code')) }));
}

export async function disableTwoFactorAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    await disableTwoFactor(getDb(), await userRef(), field(form, 'code'));
    revalidatePath(SECURITY);
    return { notice: 'Two-factor sign-in is off.' };
  });
}

export async function teamTwoFactorAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const access = await sellerAction('security:team');
    const required = field(form, 'required') === 'true';
    await getDb().transaction((tx) => setTeamTwoFactorRequirement(tx, access, required));
    revalidatePath(SECURITY);
    return { notice: required ? 'Everyone on the team now signs in with two-factor.' : 'Two-factor is no longer required.' };
  });
}
