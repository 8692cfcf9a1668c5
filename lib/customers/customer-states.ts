import { defineStateMachine } from '../state-machine';

/** A customer's lifecycle (docs/state-machines.md). */
export const customerStateMachine = defineStateMachine({
  resource: 'customer',
  initial: ['active', 'archived'],
  transitions: {
    active: ['archived'],
    archived: ['active'],
  },
  labels: {
    'active -> archived': 'PUT status archived',
    'archived -> active': 'PUT status active',
  },
  notes:
    'An archived customer keeps its history but is never charged again (409 INVALID_STATE) until it is made active. ' +
    'A PUT that repeats the status changes nothing.',
});
