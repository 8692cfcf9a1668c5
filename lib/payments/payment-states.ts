import { defineStateMachine } from '../state-machine';

/** A payment's lifecycle (docs/state-machines.md): the only statuses and moves a payment row takes. */
export const paymentStateMachine = defineStateMachine({
  resource: 'payment',
  initial: ['pending'],
  transitions: {
    pending: ['succeeded', 'failed', 'unknown'],
    unknown: ['succeeded', 'failed'],
    succeeded: ['partially_refunded', 'refunded'],
    partially_refunded: ['partially_refunded', 'refunded'],
    failed: [],
    refunded: [],
  },
  labels: {
    'pending -> succeeded': 'charged (or nothing to charge)',
    'pending -> failed': 'declined',
    'pending -> unknown': 'processor did not answer',
    'unknown -> succeeded': 'reconciled as charged',
    'unknown -> failed': 'reconciled as not charged',
    'succeeded -> partially_refunded': 'part refunded',
    'succeeded -> refunded': 'refunded in full',
    'partially_refunded -> partially_refunded': 'another part refunded',
    'partially_refunded -> refunded': 'the rest refunded',
  },
  notes:
    'Written `pending` in phase 1, before the processor is asked (docs/payments.md, "Two phases"); phase 3 records the outcome. ' +
    '`unknown` is settled by reconciliation. A succeeded refund moves its payment; refunds have their own machine.',
});
