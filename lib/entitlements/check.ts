import type { z } from 'zod';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { ApiError } from '../errors';
import type { CheckEntitlementBody } from './schemas';
import { entitlementFor, resolveEntitlements } from '../usage/resolve';
import { mayUse, openMeter } from '../usage/meter';
import { toEntitlementResponse } from '../usage/entitlement-view';
import { duplicateConflict, findUsageByExternalId, lockMeters, meterUsageRows, newUsageRow, usageFingerprint, usageResponses } from '../usage/usage-records';

/**
 * "May this customer use `quantity` of `feature`?" With `consume`, an atomic check-and-consume:
 * the meter (the period's counter and the live grants) is locked first, so concurrent callers
 * take turns and the usage is recorded only if it fits: a limit or a credit balance is never
 * overdrawn. A repeated `id` answers the original usage and counts nothing again.
 */
export async function checkEntitlement(tx: Db, merchantId: string, customerId: string, input: z.output<typeof CheckEntitlementBody>) {
  const resolved = await resolveEntitlements(tx, merchantId, customerId);
  const entitlement = entitlementFor(resolved, input.feature);
  const meter = await openMeter(tx, merchantId, resolved, entitlement, input.consume);
  const answer = (allowed: boolean, usage: Awaited<ReturnType<typeof usageResponses>>[number] | null, duplicate = false) => ({
    ...toEntitlementResponse(meter),
    allowed,
    customerId,
    usage,
    duplicate,
  });
  if (!input.consume) return answer(mayUse(meter, input.quantity, input.amount), null);
  const usageInput = { customerId, feature: input.feature, quantity: input.quantity, amount: input.amount, id: input.id, properties: input.properties };
  if (input.id) {
    const existing = (await findUsageByExternalId(tx, merchantId, [input.id])).get(input.id);
    if (existing) {
      if (existing.fingerprint !== usageFingerprint(usageInput)) throw duplicateConflict(input.id);
      const [usage] = await usageResponses(tx, [existing]);
      return answer(true, usage!, true);
    }
  }
  if (!mayUse(meter, input.quantity, input.amount)) return answer(false, null);
  const { row } = newUsageRow(merchantId, resolved, usageInput);
  try {
    // The usage, the meter and the events in one statement, under the meter's lock.
    const locked = await lockMeters(tx, merchantId, new Map([[customerId, resolved]]), [row], meter);
    const responses = await meterUsageRows(tx, merchantId, locked, [row], { insert: true });
    return answer(true, responses.get(row.id)!);
  } catch (error) {
    // Only a concurrent request with the same id for another customer or feature gets here.
    if (isUniqueViolation(error)) throw new ApiError('CONFLICT', `Usage '${input.id}' is being recorded by another request.`);
    throw error;
  }
}
