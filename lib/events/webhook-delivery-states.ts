import { defineStateMachine } from '../state-machine';

/** One event to one endpoint (docs/state-machines.md, docs/webhooks.md). */
export const webhookDeliveryStateMachine = defineStateMachine({
  resource: 'webhook delivery',
  initial: ['pending'],
  transitions: {
    pending: ['delivered', 'failed', 'dead'],
    failed: ['delivered', 'failed', 'dead'],
    delivered: ['delivered'],
    dead: ['delivered'],
  },
  labels: {
    'pending -> delivered': '2xx answer',
    'pending -> failed': 'attempt failed, retry scheduled',
    'pending -> dead': '410 Gone, or endpoint disabled',
    'failed -> delivered': '2xx answer',
    'failed -> failed': 'retry failed, next one scheduled',
    'failed -> dead': 'retries exhausted, 410 Gone, or endpoint disabled',
    'delivered -> delivered': 'sent again on request',
    'dead -> delivered': 'a Retry or recover succeeded',
  },
  notes:
    'Written `pending` with its event. A Retry or recover sends any delivery again: a 2xx makes it `delivered`, ' +
    'a failure leaves its state and schedule as they were. The dispatcher moves a delivery only from a state the table allows, ' +
    'in the statement that records the attempt.',
});
