// Statuses as the consoles (English) print them: no raw enum value reaches a person
// (issue 32, "Statuses in words"); customer pages word theirs in messages/*.json.

const RECORD = { open: 'Open', paid: 'Paid', void: 'Void', uncollectible: 'Uncollectible' } as const;
const REFUND = { requested: 'Requested', succeeded: 'Succeeded', failed: 'Failed' } as const;
const SUBSCRIPTION = { trialing: 'Trialing', active: 'Active', past_due: 'Past due', canceled: 'Canceled', ended: 'Ended' } as const;
const PAYMENT = {
  pending: 'Pending',
  requires_action: 'Awaiting authentication',
  succeeded: 'Succeeded',
  failed: 'Failed',
  unknown: 'Unknown',
  needs_review: 'Needs review',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
} as const;
const CHECKOUT = { open: 'Open', paid: 'Paid', failed: 'Failed', expired: 'Expired' } as const;
const PAYMENT_LINK = { active: 'Active', disabled: 'Disabled', archived: 'Archived', completed: 'Completed' } as const;
const ACCOUNT = { active: 'Active', suspended: 'Suspended' } as const;
const CHANGE = { applied: 'Applied', scheduled: 'Scheduled', canceled: 'Canceled', pending: 'Pending', failed: 'Failed' } as const;

const WORDS = {
  record: RECORD,
  refund: REFUND,
  subscription: SUBSCRIPTION,
  payment: PAYMENT,
  checkout: CHECKOUT,
  paymentLink: PAYMENT_LINK,
  account: ACCOUNT,
  change: CHANGE,
} as const;

/** A status in words: a value this map does not know reads as a sentence ("some_state" → "Some state"), never the raw word. */
export function statusWord(kind: keyof typeof WORDS, status: string): string {
  const known = (WORDS[kind] as Record<string, string>)[status];
  if (known) return known;
  const spaced = status.replaceAll('_', ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A paid billing record that credit notes reduced: "Paid · partly refunded" or "Paid · refunded". */
export function recordStatusWord(status: string, total: number, credited: number): string {
  if (status === 'paid' && credited > 0) return credited >= total ? 'Paid · refunded' : 'Paid · partly refunded';
  return statusWord('record', status);
}
