import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Paybase } from '@/packages/sdk/src/index';
import { subscribeNewCustomer } from '@/docs/examples/backend-example';
import { baseUrl } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { pdfText } from '../helpers/pdf';

describe('docs/backend-example.md', () => {
  it('shows the example exactly as this test runs it', () => {
    const source = fs.readFileSync('docs/examples/backend-example.ts', 'utf8');
    const region = source.split('// #region example\n')[1]!.split('// #endregion example')[0]!;
    expect(fs.readFileSync('docs/backend-example.md', 'utf8')).toContain(region);
  });

  it('takes a new customer to a saved card, a paid subscription and its invoice PDF with the SDK alone', async () => {
    const { merchant, key } = await newMerchant();
    const paybase = new Paybase({ baseUrl: baseUrl(), apiKey: key });
    const { customer, card, subscription, invoice, pdf } = await subscribeNewCustomer(paybase, {
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      tokenRef: 'tok_visa',
    });
    expect(card).toMatchObject({ customerId: customer.id, brand: 'visa', last4: '4242', isDefault: true });
    expect(subscription).toMatchObject({
      customerId: customer.id,
      status: 'active',
      paymentMethodId: card.id,
      latestBillingRecord: { status: 'paid', amount: 1999 },
    });
    expect(invoice).toMatchObject({
      subscriptionId: subscription.id,
      periodIndex: 0,
      periodStart: subscription.currentPeriodStart,
      periodEnd: subscription.currentPeriodEnd,
      status: 'paid',
      total: 1999,
      amountPaid: 1999,
      amountDue: 0,
      lineItems: [{ kind: 'plan', priceId: subscription.priceId, amount: 1999 }],
      payments: [{ status: 'succeeded', amount: 1999 }],
    });
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of ['$19.99', merchant.name, 'Ada Lovelace', invoice.number!]) expect(text).toContain(expected);

    await expect(subscribeNewCustomer(paybase, { email: 'bob@example.com', name: 'Bob', tokenRef: 'tok_declined' })).rejects.toMatchObject({
      status: 402,
      code: 'PAYMENT_DECLINED',
    });
  });
});
