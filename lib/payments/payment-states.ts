import { defineStateMachine } from '../state-machine';

/** A payment's lifecycle (docs/state-machines.md): the only statuses and moves a payment row takes. */
export const paymentStateMachine = defineStateMachine({
  resource: 'payment',
  initial: ['pending'],
  transitions: {
    pending: ['succeeded', 'failed', 'unknown', 'requires_action', 'needs_review'],
    requires_action: ['succeeded', 'failed', 'needs_review'],
    unknown: ['succeeded', 'failed', 'needs_review'],
    needs_review: ['succeeded', 'failed'],
    succeeded: ['partially_refunded', 'refunded'],
    partially_refunded: ['partially_refunded', 'refunded'],
    failed: [],
    refunded: [],
  },
  labels: {
    'pending -> succeeded': 'charged (or nothing to charge)',
    'pending -> failed': 'declined',
    'pending -> unknown': 'processor did not answer',
    'pending -> requires_action': 'the customer must authenticate',
    'requires_action -> succeeded': 'authenticated and charged',
    'requires_action -> failed': 'authentication failed or abandoned',
    'requires_action -> needs_review': 'recovery could not settle it',
    'unknown -> succeeded': 'reconciled as charged',
    'unknown -> failed': 'reconciled as not charged',
    'pending -> needs_review': 'recovery could not finish it',
    'unknown -> needs_review': 'the processor never told',
    'needs_review -> succeeded': 'a person checked: charged',
    'needs_review -> failed': 'a person checked: not charged',
    'succeeded -> partially_refunded': 'part refunded',
    'succeeded -> refunded': 'refunded in full',
    'partially_refunded -> partially_refunded': 'another part refunded',
    'partially_refunded -> refunded': 'the rest refunded',
  },
  notes:
    'Written `pending` in phase 1, before the processor is asked (docs/payments.md, "Money moves"); phase 3 records the outcome. ' +
    '`unknown` and `requires_action` (the customer is authenticating, 3-D Secure) are settled by reconciliation; ' +
    'a `requires_action` one still waiting after PAYMENT_ACTION_TIMEOUT_MS is canceled at the processor and fails. A payment recovery cannot finish or settle after a bounded number of tries is `needs_review`, ' +
    'settled by a person in the operator console. A succeeded refund moves its payment; refunds have their own machine.',
});
