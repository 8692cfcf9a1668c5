import { defineStateMachine } from '../state-machine';
import type { TestClockStatus } from '../db/schema';

/** A sandbox test clock (docs/subscriptions.md, "Test clocks"). */
export const testClockStateMachine = defineStateMachine<TestClockStatus>({
  resource: 'test clock',
  initial: ['ready'],
  transitions: {
    ready: ['advancing'],
    advancing: ['ready'],
  },
  labels: {
    'ready -> advancing': 'Advance moves the time',
    'advancing -> ready': 'every action due by then has run',
  },
  notes:
    'An Advance commits the new time with `advancing` before it runs what became due, so an advance cut off by a crash is ' +
    'found again: a retry of the same Advance, or else the worker once its lease has lapsed, finishes it.',
});
