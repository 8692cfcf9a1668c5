import type { StateMachine } from '../state-machine';
import { paymentStateMachine } from '../payments/payment-states';
import { refundStateMachine } from '../payments/refund-states';
import { disputeStateMachine } from '../payments/dispute-states';
import { checkoutStateMachine } from '../checkout/checkout-states';
import { paymentLinkStateMachine } from '../payment-links/payment-link-states';
import { billingRecordStateMachine } from '../billing/billing-record-states';
import { webhookDeliveryStateMachine } from '../events/webhook-delivery-states';
import { customerStateMachine } from '../customers/customer-states';
import { merchantStateMachine } from '../merchants/merchant-states';
import { idempotencyKeyStateMachine } from '../http/idempotency-key-states';
import { subscriptionChangeStateMachine, subscriptionStateMachine } from '../subscriptions/subscription-states';
import { testClockStateMachine } from '../subscriptions/test-clock-states';

/** What the docs read of a machine, whatever its states. */
export type DescribedStateMachine = Pick<StateMachine<string>, 'resource' | 'states' | 'transitions' | 'notes' | 'toMermaid'> & {
  readonly initial: readonly string[];
  readonly derived: readonly string[];
};

/** Every stateful resource's machine, in the order docs/state-machines.md shows them. */
export const STATE_MACHINES: readonly DescribedStateMachine[] = [
  paymentStateMachine,
  refundStateMachine,
  disputeStateMachine,
  checkoutStateMachine,
  paymentLinkStateMachine,
  billingRecordStateMachine,
  subscriptionStateMachine,
  subscriptionChangeStateMachine,
  testClockStateMachine,
  webhookDeliveryStateMachine,
  customerStateMachine,
  merchantStateMachine,
  idempotencyKeyStateMachine,
];

const title = (resource: string) => resource[0]!.toUpperCase() + resource.slice(1);

/** docs/state-machines.md, generated from the tables (`npx tsx scripts/state-diagrams.ts`). */
export function stateMachinesMarkdown(machines: readonly DescribedStateMachine[] = STATE_MACHINES): string {
  const sections = machines.map((machine) => {
    const moves = machine.states.map((from) => {
      const targets = machine.transitions[from]!;
      return `| \`${from}\` | ${targets.length ? targets.map((to) => `\`${to}\``).join(', ') : 'none (final)'} |`;
    });
    return [
      `## ${title(machine.resource)}`,
      '',
      ...(machine.notes ? [machine.notes, ''] : []),
      `New rows: ${machine.initial.map((state) => `\`${state}\``).join(', ')}.` +
        (machine.derived.length ? ` Derived when read, never stored: ${machine.derived.map((state) => `\`${state}\``).join(', ')}.` : ''),
      '',
      '```mermaid',
      machine.toMermaid(),
      '```',
      '',
      '| from | may become |',
      '|---|---|',
      ...moves,
    ].join('\n');
  });
  return [
    '# State machines',
    '',
    '<!-- Generated from lib/server/state-machines.ts by `npx tsx scripts/state-diagrams.ts`; a unit test fails when it differs. -->',
    '',
    'Every stateful resource declares its states and allowed transitions as a table next to its',
    'domain code (`lib/<domain>/<resource>-states.ts`; the webhook delivery machine sits in `lib/events`,',
    'because recording an event starts its deliveries; built with `defineStateMachine` from',
    '`lib/state-machine.ts`), and every status write goes through it: a new row starts in an initial',
    'state (`start`), an in-memory change on a locked row is checked with `assertTransition`, and a',
    'compare-and-set `UPDATE … WHERE status IN (…)` takes its guard from `sourcesOf`. An illegal',
    'transition answers 409 `INVALID_STATE` from that one place, with `state` (the current state) and',
    '`requested` (the state asked for) in the problem body. The diagrams and tables below are',
    'generated from those tables.',
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}
