import { defineStateMachine } from '../state-machine';

/** An Idempotency-Key's lifecycle (docs/state-machines.md). */
export const idempotencyKeyStateMachine = defineStateMachine({
  resource: 'idempotency key',
  initial: ['in_progress'],
  transitions: {
    in_progress: ['completed'],
    completed: [],
  },
  labels: {
    'in_progress -> completed': 'the answer commits with the request',
  },
  notes:
    'A key is claimed `in_progress` under a lease; only the lease holder stores the answer. A request that fails with ' +
    'an error deletes its claim (nothing was done, the key may be used again), a lapsed lease is taken over by the ' +
    'next request with the key, and a completed key replays its answer until it expires (24 h) and is deleted.',
});
