import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { billingRecords, outboundEmails } from '@/lib/db/schema';
import { writeReceipt } from '@/lib/billing/receipts';
import { updateAccountSettings } from '@/lib/merchants/settings';
import { baseUrl } from '../helpers/api';
import { pdfText } from '../helpers/pdf';
import { keyWithScopes, newMerchant } from '../helpers/merchants';
import { eventsOf, ik, oneTimePrice, waitFor } from '../helpers/payments';
import { advance, CARDS, clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

const path = (url: string) => new URL(url).pathname;

async function mailbox(to: string) {
  const answer = await fetch(`${baseUrl()}/dev/mailbox?format=json&to=${encodeURIComponent(to)}`);
  return ((await answer.json()) as { data: { subject: string; category: string; text: string; links: string[] }[] }).data;
}

/** Waits until the record's `send-receipt` job has run (graphile-worker deletes a finished job). */
async function receiptJobDone(billingRecordId: string) {
  await waitFor(async () => {
    const result = await getDb().execute(sql`select count(*)::int as n from graphile_worker.jobs where key = ${`receipt:${billingRecordId}`}`);
    return (result.rows[0] as { n: number }).n === 0 ? true : undefined;
  });
}

describe('billing records as invoices', () => {
  it('a one-time checkout: lines, totals, attempts, hosted page, PDF and one receipt email', async () => {
    const { api, merchant } = await newMerchant();
    await getDb().transaction((tx) =>
      updateAccountSettings(tx, merchant.id, {
        supportEmail: 'help@seller.example',
        address: { line1: '1 Market St', city: 'Springfield', postalCode: '12345', country: 'US' },
      }),
    );
    const price = await oneTimePrice(api, 2500);
    const coupon = await api.post('/api/Coupon', { amountOff: 500, currency: 'USD', duration: 'once' });
    expect(coupon.status, coupon.text).toBe(201);
    await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'FIVEOFF' });
    const email = `buyer-${Date.now()}@example.com`;
    const checkout = await api.post(
      '/api/Checkout',
      { priceId: price.id, quantity: 2, customerEmail: email, customerName: 'Ada', tokenRef: 'tok_visa', promotionCode: 'FIVEOFF' },
      ik(),
    );
    expect(checkout.status, checkout.text).toBe(201);

    const list = await api.get(`/api/BillingRecord?customerId=${checkout.body.customerId}`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.totalCount).toBe(1);
    const record = list.body.data[0];
    expect(record).toMatchObject({
      status: 'paid',
      customerId: checkout.body.customerId,
      checkoutId: checkout.body.id,
      subscriptionId: null,
      periodIndex: null,
      currency: 'USD',
      subtotal: 5000,
      discountAmount: 500,
      creditsApplied: 0,
      total: 4500,
      amount: 4500,
      amountPaid: 4500,
      amountDue: 0,
      lineItems: [
        { kind: 'one_time', priceId: price.id, quantity: 2, unitAmount: 2500, amount: 5000 },
        { kind: 'discount', amount: -500 },
      ],
      payments: [{ id: checkout.body.payment.id, status: 'succeeded', amount: 4500 }],
    });
    // The hosted address is a long random token, not the record id.
    expect(path(record.hostedInvoiceUrl)).toMatch(/^\/invoice\/[0-9a-f]{64}$/);
    expect(record.hostedInvoiceUrl).not.toContain(record.id);
    expect(record.invoicePdfUrl).toBe(`${record.hostedInvoiceUrl}/pdf`);
    expect((await api.get(`/api/BillingRecord/${record.id}`)).body).toEqual(record);

    const page = await fetch(`${baseUrl()}${path(record.hostedInvoiceUrl)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const text of [merchant.name, '1 Market St', 'Springfield', 'Receipt', '$45.00', '$50.00', '-$5.00', record.number]) expect(html).toContain(text);

    const pdf = await fetch(`${baseUrl()}${path(record.invoicePdfUrl)}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const drawn = await pdfText(bytes);
    for (const text of [merchant.name, '1 Market St', '$45.00', '$50.00', 'Receipt', record.number]) expect(drawn).toContain(text);

    expect((await fetch(`${baseUrl()}/invoice/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await fetch(`${baseUrl()}/invoice/${record.id}/pdf`)).status).toBe(404);

    const receipt = await waitFor(async () => (await mailbox(email)).find((m) => m.category === 'receipt'));
    expect(receipt.subject).toBe(`Your receipt from ${merchant.name} ($45.00)`);
    expect(receipt.links).toContain(record.hostedInvoiceUrl);
    expect(receipt.links).toContain(record.invoicePdfUrl);
    await receiptJobDone(record.id);
    expect((await mailbox(email)).filter((m) => m.category === 'receipt')).toHaveLength(1);

    // The receipt job delivered the email itself (without SMTP: marked sent) before it finished.
    const [written] = await getDb().select().from(billingRecords).where(eq(billingRecords.id, record.id));
    const [delivered] = await getDb().select().from(outboundEmails).where(eq(outboundEmails.id, written!.receiptEmailId!));
    expect(delivered!.sentAt).toBeInstanceOf(Date);
    // A run after one that stopped before delivering finds the email written, and writes no other.
    expect(await writeReceipt(getDb(), record.id)).toEqual({ outcome: 'written_before', emailId: delivered!.id });
    expect((await mailbox(email)).filter((m) => m.category === 'receipt')).toHaveLength(1);
  });

  it('a subscription: periods, proration and credit lines, every attempt, filters, and events naming subscription and period', async () => {
    const { api, merchant } = await newMerchant();
    const basic = await recurringPrice(api, { amount: 1000 });
    const pro = await recurringPrice(api, { amount: 3000, productId: basic.productId });
    const { customerId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2025-03-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: basic.id })).body;
    await advance(api, clock, '2025-03-16T00:00:00.000Z');
    const up = await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'ChangePrice', priceId: pro.id }, ik());
    const down = await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'ChangePrice', priceId: basic.id }, ik());
    const credit = down.body.subscription.creditBalance as number;
    expect(credit).toBeGreaterThan(0);
    await advance(api, clock, '2025-04-01T00:00:00.000Z');

    const records = (await api.get(`/api/BillingRecord?subscriptionId=${sub.id}&orderDirection=asc`)).body.data;
    expect(records.map((r: any) => [r.lineItems[0].kind, r.periodIndex])).toEqual([
      ['plan', 0],
      ['proration', 0],
      ['plan', 1],
    ]);
    const [first, proration, renewal] = records;
    expect(first).toMatchObject({
      subscriptionId: sub.id,
      periodStart: '2025-03-01T00:00:00.000Z',
      periodEnd: '2025-04-01T00:00:00.000Z',
      total: 1000,
      status: 'paid',
    });
    expect(proration).toMatchObject({ total: up.body.change.prorationAmount, lineItems: [{ kind: 'proration', priceId: pro.id }] });
    const creditUsed = Math.min(credit, 1000);
    expect(renewal).toMatchObject({
      periodStart: '2025-04-01T00:00:00.000Z',
      periodEnd: '2025-05-01T00:00:00.000Z',
      subtotal: 1000,
      creditsApplied: creditUsed,
      total: 1000 - creditUsed,
      lineItems: [
        { kind: 'plan', priceId: basic.id, amount: 1000 },
        { kind: 'credit', amount: -creditUsed },
      ],
    });
    for (const record of records) expect(record.lineItems.reduce((sum: number, line: any) => sum + line.amount, 0)).toBe(record.total);

    // Every payment and billing-record event of the renewal names the subscription and period 1.
    const renewalEvents = [
      ...(await eventsOf(merchant.id, 'billing_record.created')),
      ...(await eventsOf(merchant.id, 'billing_record.paid')),
      ...(await eventsOf(merchant.id, 'payment.succeeded')),
    ].filter((e) => [renewal.id, renewal.paymentId].includes((e.data as any).object.id));
    expect(renewalEvents).toHaveLength(3);
    for (const event of renewalEvents)
      expect((event.data as any).object).toMatchObject({
        subscriptionId: sub.id,
        periodIndex: 1,
        periodStart: renewal.periodStart,
        periodEnd: renewal.periodEnd,
      });
    const paid = renewalEvents.find((e) => e.type === 'billing_record.paid')!;
    expect((paid.data as any).object).toMatchObject({ hostedInvoiceUrl: renewal.hostedInvoiceUrl, lineItems: renewal.lineItems, amountPaid: renewal.total });

    const after = await api.get(`/api/BillingRecord?subscriptionId=${sub.id}&orderDirection=asc&startingAfter=${first.id}`);
    expect(after.body.data.map((r: any) => r.id)).toEqual([proration.id, renewal.id]);
    expect((await api.get(`/api/BillingRecord?customerId=${customerId}&status=open`)).body.totalCount).toBe(0);
    expect((await api.get(`/api/BillingRecord?status=paid&orderBy=amount&orderDirection=desc`)).body.data[0].id).toBe(proration.id);
    expect((await api.get('/api/BillingRecord?status=draft')).status).toBe(400);
  });

  it('a declined renewal retried with a new card lists both attempts; a trial start names its subscription', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1000, trialDays: 3 });
    const { customerId } = await customerWithCard(api, merchant.id, CARDS.insufficient);
    const clock = await clockFor(api, customerId, '2025-06-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    await advance(api, clock, '2025-06-04T00:00:00.000Z');
    const [open] = (await api.get(`/api/BillingRecord?subscriptionId=${sub.id}`)).body.data;
    expect(open).toMatchObject({ status: 'open', total: 1000, amountPaid: 0, amountDue: 1000, payments: [{ status: 'failed' }] });
    const failed = (await eventsOf(merchant.id, 'payment.failed'))[0]!;
    expect((failed.data as any).object).toMatchObject({ subscriptionId: sub.id, periodIndex: 0 });

    await api.post(`/api/Customer/${customerId}/PaymentMethod`, { tokenRef: 'tok_visa', makeDefault: true }, ik());
    await advance(api, clock, '2025-06-04T00:00:01.000Z');
    const paid = (await api.get(`/api/BillingRecord/${open.id}`)).body;
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 1000, amountDue: 0 });
    expect(paid.payments.map((p: any) => p.status)).toEqual(['failed', 'succeeded']);
    expect(paid.paymentId).toBe(paid.payments[1].id);

    const trialPrice = await recurringPrice(api, { amount: 500, trialDays: 7 });
    const trial = await api.post('/api/Checkout', { priceId: trialPrice.id, customerEmail: `trial-${Date.now()}@example.com`, tokenRef: 'tok_visa' }, ik());
    expect(trial.status, trial.text).toBe(201);
    // A trial makes no payment (no "$0.00 succeeded" in the payments or their success rate).
    expect(trial.body).toMatchObject({ paid: true, payment: null });
    const succeeded = await eventsOf(merchant.id, 'payment.succeeded');
    expect(succeeded.filter((e) => (e.data as any).object.subscriptionId === trial.body.subscriptionId)).toEqual([]);
  });

  it('is the seller’s own: other sellers get 404, a key without payments:read 403, and receipts follow sendReceipts', async () => {
    const { api, merchant } = await newMerchant();
    const other = await newMerchant();
    const price = await oneTimePrice(api, 700);
    await getDb().transaction((tx) => updateAccountSettings(tx, merchant.id, { sendReceipts: false }));
    const quietEmail = `quiet-${Date.now()}@example.com`;
    const quiet = await api.post('/api/Checkout', { priceId: price.id, customerEmail: quietEmail, tokenRef: 'tok_visa' }, ik());
    const record = (await api.get(`/api/BillingRecord?customerId=${quiet.body.customerId}`)).body.data[0];

    expect((await other.api.get(`/api/BillingRecord/${record.id}`)).status).toBe(404);
    expect((await other.api.get(`/api/BillingRecord?customerId=${quiet.body.customerId}`)).body.totalCount).toBe(0);
    const noScope = await keyWithScopes(merchant.id, ['customers:read']);
    const refused = await noScope.api.get('/api/BillingRecord');
    expect(refused.status).toBe(403);
    expect(refused.body.requiredScope).toBe('payments:read');
    expect((await (await keyWithScopes(merchant.id, ['payments:read'])).api.get(`/api/BillingRecord/${record.id}`)).status).toBe(200);

    await receiptJobDone(record.id);
    expect((await mailbox(quietEmail)).filter((m) => m.category === 'receipt')).toHaveLength(0);
    const [row] = await getDb().select().from(billingRecords).where(eq(billingRecords.id, record.id));
    expect(row!.receiptEmailId).toBeNull();
  });
});
