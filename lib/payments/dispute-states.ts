import { defineStateMachine } from '../state-machine';

/**
 * A dispute's lifecycle as Stripe runs it (docs/state-machines.md): Paybase never decides a
 * dispute, it records the state Stripe reports, so any state may be the first one it sees. The
 * table lists the moves forward; a state read from Stripe that the table does not allow from the
 * stored one is older than it (an overtaken read) and is not written.
 */
export const disputeStateMachine = defineStateMachine({
  resource: 'dispute',
  initial: [
    'warning_needs_response',
    'warning_under_review',
    'warning_closed',
    'needs_response',
    'under_review',
    'won',
    'lost',
    'prevented',
    'appeal_needs_response',
    'appeal_under_review',
  ],
  transitions: {
    warning_needs_response: ['warning_under_review', 'warning_closed', 'needs_response', 'under_review', 'won', 'lost', 'prevented'],
    warning_under_review: ['warning_closed', 'needs_response', 'under_review', 'won', 'lost'],
    warning_closed: ['needs_response', 'under_review', 'won', 'lost'],
    needs_response: ['under_review', 'won', 'lost', 'prevented'],
    under_review: ['won', 'lost'],
    won: [],
    lost: ['appeal_needs_response'],
    prevented: [],
    appeal_needs_response: ['appeal_under_review', 'won', 'lost'],
    appeal_under_review: ['won', 'lost'],
  },
  labels: {
    'warning_needs_response -> warning_under_review': 'evidence submitted to the inquiry',
    'warning_needs_response -> needs_response': 'the inquiry became a chargeback',
    'warning_under_review -> warning_closed': 'the issuer closed the inquiry',
    'needs_response -> under_review': 'evidence submitted',
    'needs_response -> lost': 'accepted, or no evidence by the due date',
    'under_review -> won': 'the issuer decided for the seller',
    'under_review -> lost': 'the issuer decided for the customer',
    'lost -> appeal_needs_response': 'the network allows an appeal',
  },
  notes:
    'Made and updated from the `charge.dispute.*` webhooks of Stripe, each time from the dispute read back from Stripe (docs/processors.md, "Disputes"). ' +
    '`warning_*` states are inquiries (no money moves); a chargeback takes the amount when it opens and gives it back when won. ' +
    '`won`, `lost`, `warning_closed` and `prevented` close a dispute (`dispute.closed`); a lost one may be appealed.',
});

/** The states that end a dispute (`dispute.closed`); an appeal reopens a lost one. */
export const CLOSED_DISPUTE_STATUSES = ['won', 'lost', 'warning_closed', 'prevented'] as const;

/** The states in which the seller may still submit evidence. */
export const EVIDENCE_OPEN_STATUSES = ['needs_response', 'warning_needs_response'] as const;
