import type { Db } from '../db/client';
import { recordAudit } from '../audit/audit-log';
import { notFound } from '../errors';
import { endSubjectSessions } from '../auth/sessions';
import { resumeHeldSubscriptionActions } from '../subscriptions/renewals';
import { findMerchantById, setMerchantStatus, toMerchantResponse } from '../merchants/merchants';

/**
 * Suspends a seller: its API keys stop at once (keys resolve only for active sellers), every
 * open console session is ended, so reinstating never revives an old sign-in, and no money moves
 * for it any more (`assertSellerAcceptsPayments`; renewals roll over uncharged; docs/payments.md).
 */
export async function suspendMerchant(tx: Db, merchantId: string, input: { reason?: string } = {}) {
  const before = await findMerchantById(tx, merchantId);
  if (!before) throw notFound('merchant', merchantId);
  await setMerchantStatus(tx, merchantId, 'suspended');
  await recordAudit(tx, {
    merchantId,
    action: 'merchant.suspended',
    target: { kind: 'merchant', id: merchantId },
    metadata: { reason: input.reason ?? null, previousStatus: before.status },
  });
  await endSubjectSessions(tx, { audience: 'merchant', subjectId: merchantId, reason: 'suspended' });
  return toMerchantResponse((await findMerchantById(tx, merchantId))!);
}

/**
 * Reinstates a seller: its unrevoked API keys work again, the seller signs in anew, and dunning
 * retries and scheduled changes held during the suspension become due.
 */
export async function reinstateMerchant(tx: Db, merchantId: string, input: { reason?: string } = {}) {
  const before = await findMerchantById(tx, merchantId);
  if (!before) throw notFound('merchant', merchantId);
  await setMerchantStatus(tx, merchantId, 'active');
  await recordAudit(tx, {
    merchantId,
    action: 'merchant.reinstated',
    target: { kind: 'merchant', id: merchantId },
    metadata: { reason: input.reason ?? null, previousStatus: before.status },
  });
  await resumeHeldSubscriptionActions(tx, merchantId);
  return toMerchantResponse((await findMerchantById(tx, merchantId))!);
}
