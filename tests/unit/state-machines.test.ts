import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/errors';
import { STATE_MACHINES, stateMachinesMarkdown } from '@/lib/server/state-machines';
import { paymentStateMachine } from '@/lib/payments/payment-states';
import { refundStateMachine } from '@/lib/payments/refund-states';
import { paymentLinkStateMachine } from '@/lib/payment-links/payment-link-states';
import { billingRecordStateMachine } from '@/lib/billing/billing-record-states';
import { checkoutStateMachine } from '@/lib/checkout/checkout-states';
import { webhookDeliveryStateMachine } from '@/lib/events/webhook-delivery-states';
import { customerStateMachine } from '@/lib/customers/customer-states';
import { merchantStateMachine } from '@/lib/merchants/merchant-states';
import { nextDeliveryState, type AttemptResult } from '@/lib/webhooks/record';
import type { WebhookAttemptTrigger, WebhookDeliveryStatus } from '@/lib/db/schema';

function refusalOf(act: () => void): ApiError {
  try {
    act();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the transition was allowed');
}

describe('docs/state-machines.md', () => {
  it('shows every machine exactly as its table says (npx tsx scripts/state-diagrams.ts regenerates it)', () => {
    expect(fs.readFileSync('docs/state-machines.md', 'utf8')).toBe(stateMachinesMarkdown());
  });

  it('has no state a row can never reach', () => {
    for (const machine of STATE_MACHINES) {
      const reached = new Set<string>(machine.initial);
      for (let grew = true; grew; ) {
        grew = false;
        for (const from of [...reached]) {
          for (const to of machine.transitions[from]!) if (!reached.has(to)) grew = Boolean(reached.add(to));
        }
      }
      expect([...reached].sort(), machine.resource).toEqual([...machine.states].sort());
    }
  });
});

describe('the transitions the domain code performs are in the tables, and nothing else is', () => {
  it('payments: a charge outcome only from pending, refunds only from succeeded or partially refunded', () => {
    for (const outcome of ['succeeded', 'failed', 'unknown'] as const) expect(paymentStateMachine.canTransition('pending', outcome)).toBe(true);
    expect(paymentStateMachine.sourcesOf('refunded')).toEqual(['succeeded', 'partially_refunded']);
    const refused = refusalOf(() =>
      paymentStateMachine.assertTransition('failed', 'refunded', 'Payment pay_1 is failed', 'only a succeeded payment can be refunded'),
    );
    expect(refused).toMatchObject({ code: 'INVALID_STATE', detail: 'Payment pay_1 is failed: only a succeeded payment can be refunded.' });
    expect(refused.options.extra).toEqual({ state: 'failed', requested: 'refunded' });
    // Reconciliation settles unknown payments only; a pending one is finished by its own request.
    expect(() => paymentStateMachine.assertTransition('unknown', 'succeeded', 'Payment pay_1', undefined, ['pending'])).toThrow(ApiError);
    expect(paymentStateMachine.start('pending')).toBe('pending');
  });

  it('refunds, checkouts and billing records settle once', () => {
    expect(refundStateMachine.sourcesOf('succeeded')).toEqual(['requested']);
    expect(refundStateMachine.isFinal('failed')).toBe(true);
    expect(checkoutStateMachine.sourcesOf('paid')).toEqual(['open']);
    expect(checkoutStateMachine.sourcesOf('failed')).toEqual(['open']);
    expect(billingRecordStateMachine.initial).toEqual(['open', 'paid']);
    for (const to of ['paid', 'void', 'uncollectible'] as const) expect(billingRecordStateMachine.sourcesOf(to)).toEqual(['open']);
    expect(refusalOf(() => checkoutStateMachine.assertTransition('failed', 'paid', 'Checkout co_1')).detail).toBe(
      'Checkout co_1: a checkout that is failed cannot become paid.',
    );
  });

  it('payment links: Enable reopens a disabled link only; an expired link can only be archived; archived is final', () => {
    const enable = (from: 'completed' | 'disabled' | 'expired') => () =>
      paymentLinkStateMachine.assertTransition(from, 'active', 'Cannot enable payment link pl_1', `it is ${from}`, ['disabled']);
    expect(enable('disabled')).not.toThrow();
    expect(refusalOf(enable('completed')).detail).toBe('Cannot enable payment link pl_1: it is completed.');
    expect(refusalOf(enable('expired')).options.extra).toEqual({ state: 'expired', requested: 'active' });
    expect(paymentLinkStateMachine.canTransition('expired', 'disabled')).toBe(false);
    expect(paymentLinkStateMachine.canTransition('expired', 'archived')).toBe(true);
    // A completion slot is taken only by an active link; `expired` is never part of a write guard.
    expect(paymentLinkStateMachine.sourcesOf('completed')).toEqual(['active']);
    expect(paymentLinkStateMachine.sourcesOf('archived')).toEqual(['active', 'disabled', 'completed']);
    expect(refusalOf(() => paymentLinkStateMachine.assertNotFinal('archived', 'Cannot update payment link pl_1', 'it is archived')).detail).toBe(
      'Cannot update payment link pl_1: it is archived.',
    );
  });

  it('webhook deliveries: every state an attempt leaves a delivery in is allowed from the state it was claimed in', () => {
    const claimable: [WebhookDeliveryStatus, WebhookAttemptTrigger][] = [
      ['pending', 'automatic'],
      ['failed', 'automatic'],
      ...(['pending', 'failed', 'delivered', 'dead'] as const).flatMap((status) =>
        (['manual', 'recover'] as const).map((trigger) => [status, trigger] as [WebhookDeliveryStatus, WebhookAttemptTrigger]),
      ),
    ];
    const outcomes = [
      { succeeded: true, status: 200 },
      { succeeded: false, status: 500 },
      { succeeded: false, status: 410 },
    ];
    for (const [status, trigger] of claimable) {
      for (const attempts of [0, 20]) {
        for (const outcome of outcomes) {
          const result = {
            delivery: { status, trigger, attemptCount: attempts },
            outcome: { ...outcome, responseBody: null, error: null, durationMs: 1 },
            finishedAt: new Date(0),
          } as unknown as AttemptResult;
          const next = nextDeliveryState(result, () => 0.5).status;
          if (next) expect(webhookDeliveryStateMachine.canTransition(status, next), `${status} (${trigger}, ${outcome.status}) → ${next}`).toBe(true);
        }
      }
    }
    expect(webhookDeliveryStateMachine.sourcesOf('dead')).toEqual(['pending', 'failed']);
  });

  it('customers and sellers move between their two states, and a seller is not suspended twice', () => {
    expect(customerStateMachine.canTransition('archived', 'active')).toBe(true);
    expect(merchantStateMachine.sourcesOf('suspended')).toEqual(['active']);
    expect(refusalOf(() => merchantStateMachine.assertTransition('suspended', 'suspended', 'Seller mer_1', 'it is suspended already')).code).toBe(
      'INVALID_STATE',
    );
  });
});
