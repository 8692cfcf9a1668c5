import { defineStateMachine } from '../state-machine';

/** A refund's lifecycle (docs/state-machines.md). */
export const refundStateMachine = defineStateMachine({
  resource: 'refund',
  initial: ['requested'],
  transitions: {
    requested: ['succeeded', 'failed'],
    succeeded: [],
    failed: [],
  },
  labels: {
    'requested -> succeeded': 'processor refunded',
    'requested -> failed': 'processor refused',
  },
  notes:
    'Committed `requested` in phase 1 (the amount counts as taken, so concurrent refunds never exceed the payment); ' +
    "the processor's answer settles it in phase 3, or reconciliation after a crash. Only a succeeded or partially refunded payment takes a refund.",
});
