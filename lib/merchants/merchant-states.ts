import { defineStateMachine } from '../state-machine';

/** A seller account's lifecycle (docs/state-machines.md, docs/payments.md "Suspended sellers"). */
export const merchantStateMachine = defineStateMachine({
  resource: 'seller',
  initial: ['active'],
  transitions: {
    active: ['suspended'],
    suspended: ['active'],
  },
  labels: {
    'active -> suspended': 'the operator suspends',
    'suspended -> active': 'the operator reinstates',
  },
  notes:
    "A suspended seller's API keys and sign-ins stop and no money moves for it. " +
    'Suspending a suspended seller, or reinstating an active one, answers 409 INVALID_STATE.',
});
