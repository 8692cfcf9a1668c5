import { defineStateMachine } from '../state-machine';

/** A billing record's lifecycle (docs/state-machines.md, docs/invoices.md). */
export const billingRecordStateMachine = defineStateMachine({
  resource: 'billing record',
  initial: ['open', 'paid'],
  transitions: {
    open: ['paid', 'void', 'uncollectible'],
    paid: [],
    void: [],
    uncollectible: [],
  },
  labels: {
    'open -> paid': 'its payment succeeded',
    'open -> void': 'its unknown payment failed',
    'open -> uncollectible': 'subscription gave up collecting',
  },
  notes:
    'Written `open` for a payment still pending or unknown, or `paid` in the statement of a payment that succeeded ' +
    '(its `billing_record.created` event still shows it `open`, then `billing_record.paid`). A declined attempt creates none.',
});
