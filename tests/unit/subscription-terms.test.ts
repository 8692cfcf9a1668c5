import { describe, expect, it } from 'vitest';
import { subscriptionTerms } from '@/lib/checkout/subscription-terms';

const monthly = { amount: 1999, currency: 'USD', interval: 'month' as const, intervalCount: 1, trialDays: null };
const at = new Date('2026-11-23T12:08:00Z');

describe('subscriptionTerms', () => {
  it('says a trial is free, then what and from when', () => {
    expect(subscriptionTerms({ ...monthly, trialDays: 7 }, null, at)).toMatchObject({
      recurringLabel: '$19.99/month',
      dueTodayAmount: 0,
      dueToday: '$0.00',
      summary: '7 days free, then $19.99/month from 30 Nov',
      discountLabel: null,
      buttonLabel: 'Start trial',
    });
  });

  it('walks a coupon through its window: once, repeating and forever', () => {
    const once = subscriptionTerms({ ...monthly, trialDays: 7 }, { percentOff: 25, amountOff: null, duration: 'once', durationInMonths: null }, at);
    expect(once).toMatchObject({
      dueToday: '$0.00',
      summary: '7 days free, then $14.99 on 30 Nov, then $19.99/month from 30 Dec',
      discountLabel: '$5.00 on the first payment',
    });
    const repeating = subscriptionTerms(monthly, { percentOff: null, amountOff: 500, duration: 'repeating', durationInMonths: 3 }, at);
    expect(repeating).toMatchObject({
      dueTodayAmount: 1499,
      summary: '$14.99 today, then $14.99/month from 23 Dec, then $19.99/month from 23 Feb',
      discountLabel: '$5.00 for 3 months',
      buttonLabel: 'Subscribe',
    });
    const forever = subscriptionTerms(monthly, { percentOff: 10, amountOff: null, duration: 'forever', durationInMonths: null }, at);
    expect(forever.summary).toBe('$17.99 today, then $17.99/month from 23 Dec');
  });

  it('uses the currency’s own decimals and the interval count', () => {
    const yen = subscriptionTerms({ amount: 1980, currency: 'JPY', interval: 'month', intervalCount: 3, trialDays: null }, null, at);
    expect(yen).toMatchObject({ recurringLabel: '¥1,980 every 3 months', summary: '¥1,980 today, then ¥1,980 every 3 months from 23 Feb' });
  });
});
