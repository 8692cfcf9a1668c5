'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { DISPUTE_EVIDENCE_FIELDS } from '@/lib/db/schema';
import { submitDisputeEvidence } from '@/lib/payments/dispute-evidence';
import { DisputeEvidenceBody } from '@/lib/payments/schemas';
import { runConsoleOnce } from '@/lib/server/web/console-once';
import { field, formAction, requireConfirmed, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';
import { sellerAction } from '../../session';

/**
 * Sends a dispute's evidence to Stripe (the API's domain function), once per form key; `draft`
 * keeps it at Stripe without sending it to the issuer, anything else must be confirmed first.
 */
export async function submitDisputeEvidenceAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const { merchantId } = await sellerAction('disputes:respond');
    const disputeId = field(form, 'disputeId');
    const draft = field(form, 'draft') === 'yes';
    if (!draft) requireConfirmed(form, 'send this evidence to the card issuer');
    const evidence = Object.fromEntries(DISPUTE_EVIDENCE_FIELDS.map((name) => [name, field(form, name) || undefined]));
    const body = parseForm(DisputeEvidenceBody, { ...evidence, submit: !draft });
    const key = field(form, 'evidenceKey');
    await runConsoleOnce(getDb(), { merchantId, key, action: `dispute-evidence:${disputeId}`, body }, (phases) =>
      submitDisputeEvidence(phases, merchantId, disputeId, body, `console:${key}`),
    );
    revalidatePath('/merchant/disputes');
    // A fresh page: a sent dispute no longer shows the form, a draft shows what Stripe keeps.
    redirect(`/merchant/disputes/${disputeId}?evidence=${draft ? 'draft' : 'sent'}`);
  });
}
