import type { Task } from 'graphile-worker';
import { getDb } from '../../../db/client';
import { purgeExpiredIdempotencyKeys } from '../../../http/idempotency';

export const purgeIdempotencyKeys: Task = async (_payload, helpers) => {
  const removed = await purgeExpiredIdempotencyKeys(getDb());
  if (removed) helpers.logger.info(`removed ${removed} expired idempotency keys`);
};
