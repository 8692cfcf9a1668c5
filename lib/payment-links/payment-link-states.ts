import { defineStateMachine } from '../state-machine';

/**
 * A payment link's lifecycle (docs/state-machines.md). `expired` is derived when the link is
 * read (`paymentLinkStatus`), so a link expires exactly at `expiresAt` without a job; it is a
 * state of the table (Enable and Disable refuse it, Archive takes it) but never written.
 */
export const paymentLinkStateMachine = defineStateMachine({
  resource: 'payment link',
  initial: ['active'],
  transitions: {
    active: ['disabled', 'completed', 'archived', 'expired'],
    disabled: ['active', 'archived', 'expired'],
    completed: ['active', 'archived'],
    expired: ['archived'],
    archived: [],
  },
  derived: ['expired'],
  labels: {
    'active -> disabled': 'Disable',
    'active -> completed': 'last allowed completion taken, or maxCompletions lowered',
    'active -> archived': 'Archive',
    'active -> expired': 'expiresAt passes',
    'disabled -> active': 'Enable',
    'disabled -> archived': 'Archive',
    'disabled -> expired': 'expiresAt passes',
    'completed -> active': 'a failed payment gives its slot back, or maxCompletions raised',
    'completed -> archived': 'Archive',
    'expired -> archived': 'Archive',
  },
  notes:
    'Created (or duplicated) `active`. `archived` is final: a PUT on an archived link answers 409 INVALID_STATE. ' +
    '`expired` (dashed) is never stored: a PUT with a later or no `expiresAt` makes the link what its stored status says again.',
});
