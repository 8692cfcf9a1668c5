import { defineStateMachine } from '../state-machine';

/** A checkout's lifecycle (docs/state-machines.md). */
export const checkoutStateMachine = defineStateMachine({
  resource: 'checkout',
  initial: ['open'],
  transitions: {
    open: ['paid', 'failed', 'expired'],
    paid: [],
    failed: [],
    expired: [],
  },
  labels: {
    'open -> paid': 'payment succeeded',
    'open -> failed': 'payment failed',
    'open -> expired': 'reserved, not written yet',
  },
  notes:
    'A checkout is written when it is completed, so `open` means its payment is pending or unknown. ' +
    'A failed checkout gives back its promotion redemption and payment-link slot. ' +
    '`expired` is part of the API for checkouts created ahead of payment; nothing writes it yet.',
});
