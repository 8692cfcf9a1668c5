import type { Db } from '../db/client';
import { config } from '../config';
import { enqueueJob } from '../jobs/enqueue';
import type { WebhookAttemptTrigger } from '../db/schema';

export const DELIVER_WEBHOOK_TASK = 'deliver-webhook';

/**
 * Each endpoint gets `WEBHOOK_ENDPOINT_CONCURRENCY` graphile-worker queues; a queue runs one job
 * at a time, so a slow or dead endpoint occupies at most that many workers while every other
 * endpoint's jobs keep flowing through the rest.
 */
export function deliveryQueueName(endpointId: string, deliveryId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < deliveryId.length; i++) hash = Math.imul(hash ^ deliveryId.charCodeAt(i), 0x01000193) >>> 0;
  return `webhooks:${endpointId}:${hash % config.webhooks.endpointConcurrency}`;
}

/**
 * Queues an attempt in the caller's transaction. Automatic attempts share the job key of the
 * delivery, so at most one is ever pending; a manual or recover attempt has its own key and
 * leaves the automatic schedule alone.
 */
export async function enqueueDeliveryAttempt(
  tx: Db,
  delivery: { id: string; endpointId: string },
  options: { trigger?: WebhookAttemptTrigger; runAt?: Date } = {},
): Promise<void> {
  const trigger = options.trigger ?? 'automatic';
  await enqueueJob(
    tx,
    DELIVER_WEBHOOK_TASK,
    trigger === 'automatic' ? { deliveryId: delivery.id } : { deliveryId: delivery.id, trigger },
    {
      jobKey: trigger === 'automatic' ? delivery.id : `${delivery.id}:${trigger}`,
      queueName: deliveryQueueName(delivery.endpointId, delivery.id),
      runAt: options.runAt,
    },
  );
}
