import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { getDb } from '../../db/client';
import { attemptDelivery } from '../../webhooks/attempt';

const Payload = z.object({
  deliveryId: z.string(),
  trigger: z.enum(['automatic', 'manual', 'recover']).default('automatic'),
});

/** One webhook delivery attempt; the schedule, signing and bookkeeping live in lib/webhooks. */
export const deliverWebhookTask: Task = async (payload, helpers) => {
  const { deliveryId, trigger } = Payload.parse(payload);
  await attemptDelivery(getDb(), deliveryId, { trigger, workerId: helpers.job.locked_by ?? undefined });
};
