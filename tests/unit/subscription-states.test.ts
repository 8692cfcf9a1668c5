import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/errors';
import { subscriptionChangeStateMachine, subscriptionStateMachine } from '@/lib/subscriptions/subscription-states';

function refusal(run: () => void) {
  try {
    run();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('the transition was allowed');
}

describe('subscriptionStateMachine', () => {
  const machine = subscriptionStateMachine;

  it('declares every status, and a subscription starts trialing or active', () => {
    expect([...machine.states].sort()).toEqual(['active', 'canceled', 'ended', 'past_due', 'trialing']);
    expect(machine.initial).toEqual(['trialing', 'active']);
  });

  it('allows what the billing engine, dunning and the commands do', () => {
    const allowed: [from: (typeof machine.states)[number], to: (typeof machine.states)[number]][] = [
      ['trialing', 'active'], // trial end, charged
      ['trialing', 'past_due'], // trial end, declined or unknown
      ['active', 'past_due'], // a renewal declined
      ['past_due', 'active'], // a dunning retry paid
      ['past_due', 'ended'], // the last retry failed
      ['active', 'canceled'], // CancelAtPeriodEnd
      ['past_due', 'canceled'],
      ['trialing', 'canceled'],
      ['canceled', 'active'], // Reactivate
      ['canceled', 'trialing'],
      ['canceled', 'past_due'],
      ['canceled', 'ended'], // the period end, or Cancel immediate
    ];
    for (const [from, to] of allowed) expect(machine.canTransition(from, to), `${from} → ${to}`).toBe(true);
  });

  it('refuses leaving ended and going back into a trial once it is over', () => {
    for (const to of ['trialing', 'active', 'past_due', 'canceled'] as const) expect(machine.canTransition('ended', to)).toBe(false);
    expect(machine.isFinal('ended')).toBe(true);
    expect(machine.canTransition('active', 'trialing')).toBe(false);
    expect(machine.canTransition('past_due', 'trialing')).toBe(false);
    expect(machine.sourcesOf('trialing')).toEqual(['canceled']);
    expect(machine.sourcesOf('ended')).toEqual(['trialing', 'active', 'past_due', 'canceled']);
  });

  it('is the diagram docs/subscriptions.md shows', () => {
    expect(readFileSync('docs/subscriptions.md', 'utf8')).toContain(`\`\`\`mermaid\n${machine.toMermaid()}\n\`\`\``);
  });

  it('answers an illegal transition with 409 INVALID_STATE naming both states', () => {
    const error = refusal(() => machine.assertTransition('ended', 'active', 'Subscription sub_1'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'INVALID_STATE', detail: 'Subscription sub_1: a subscription that is ended cannot become active.' });
    expect(error.options.extra).toEqual({ state: 'ended', requested: 'active' });
  });
});

describe('subscriptionChangeStateMachine', () => {
  const machine = subscriptionChangeStateMachine;

  it('applies or cancels a scheduled change once; applied and canceled are final', () => {
    // Written canceled: accepted and charged, but the subscription ended or moved before the charge came back.
    expect(machine.initial).toEqual(['applied', 'scheduled', 'canceled']);
    expect(machine.canTransition('scheduled', 'applied')).toBe(true);
    expect(machine.canTransition('scheduled', 'canceled')).toBe(true);
    expect(machine.canTransition('applied', 'canceled')).toBe(false);
    expect(machine.canTransition('canceled', 'applied')).toBe(false);
    expect(machine.isFinal('applied') && machine.isFinal('canceled')).toBe(true);
    expect(refusal(() => machine.assertTransition('canceled', 'applied', 'Subscription change sch_1')).options.extra).toEqual({
      state: 'canceled',
      requested: 'applied',
    });
  });
});
