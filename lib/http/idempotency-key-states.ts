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
    'A key is claimed `in_progress` under a lease; only the lease holder stores the answer (an error the request ' +
    'produced is an answer too). A lapsed lease is taken over by the next request with the key; a request that fails ' +
    'with a 5xx after part of it committed (a money move past phase 1) gives its lease up at once, unanswered, for the ' +
    'next request to take over and answer the outcome. A console form whose work fails deletes its claim (nothing was ' +
    'done). A completed key replays its answer until it expires (24 h) and is deleted.',
});
