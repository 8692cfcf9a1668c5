'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { invalidField } from '@/lib/errors';
import { changeMemberRole, inviteMember, removeMember, revokeInvitation } from '@/lib/team/team';
import { setSupportRefundLimit } from '@/lib/merchants/merchants';
import { ChangeRoleBody, InviteMemberBody } from '@/lib/team/schemas';
import { ROLE_LABELS } from '@/lib/merchants/roles';
import { parseMoney } from '@/lib/money/parse';
import { normalizeCurrency } from '@/lib/money/currencies';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';
import { sellerAction } from '../../session';

const TEAM = '/merchant/team';

export async function inviteMemberAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const access = await sellerAction('team:manage');
    const body = parseForm(InviteMemberBody, { email: field(form, 'email'), role: field(form, 'role') });
    await getDb().transaction((tx) => inviteMember(tx, access, body));
    revalidatePath(TEAM);
    return { notice: `Invitation sent to ${body.email} as ${ROLE_LABELS[body.role]}. The link works for 7 days.` };
  });
}

export async function changeRoleAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const access = await sellerAction('team:manage');
    const body = parseForm(ChangeRoleBody, { role: field(form, 'role') });
    const member = await getDb().transaction((tx) => changeMemberRole(tx, access, field(form, 'userId'), body.role));
    revalidatePath(TEAM);
    return { notice: `${member.name} is now ${ROLE_LABELS[member.role]}.` };
  });
}

export async function removeMemberAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const access = await sellerAction('team:manage');
    await getDb().transaction((tx) => removeMember(tx, access, field(form, 'userId')));
    revalidatePath(TEAM);
  });
}

export async function revokeInvitationAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const access = await sellerAction('team:manage');
    await getDb().transaction((tx) => revokeInvitation(tx, access, field(form, 'invitationId')));
    revalidatePath(TEAM);
  });
}

export async function supportRefundLimitAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const { merchantId } = await sellerAction('settings:write');
    const amountText = field(form, 'amount');
    if (!amountText) {
      await getDb().transaction((tx) => setSupportRefundLimit(tx, merchantId, null));
      revalidatePath(TEAM);
      return { notice: 'Support members can no longer refund.' };
    }
    const currency = normalizeCurrency(field(form, 'currency'));
    if (!currency) throw invalidField('currency', 'Enter a three-letter ISO 4217 code, such as USD or EUR.');
    const amount = parseMoney(amountText, currency);
    if (!amount) throw invalidField('amount', `Enter an amount in ${currency} greater than zero, or leave it empty.`);
    await getDb().transaction((tx) => setSupportRefundLimit(tx, merchantId, { amount, currency }));
    revalidatePath(TEAM);
    return { notice: 'Refund limit saved.' };
  });
}
