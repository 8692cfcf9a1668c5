import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/lib/auth/api-keys';
import { now } from '@/lib/clock';
import { auditLog, disputes, events, payments, processorEvents, webhookEndpoints } from '@/lib/db/schema';
import { SCOPES, type Scope } from '@/lib/http/scopes';
import { createMerchant } from '@/lib/merchants/merchants';
import { recordProcessorDispute } from '@/lib/payments/disputes';
import { loadOverview } from '@/lib/reports/overview';
import { computeSignature } from '@/lib/webhooks/signature';
import { call } from '../helpers/api';
import { waitFor } from '../helpers/payments';
import { serverDatabase, serverPool } from '../helpers/server-pool';
import { startStripeServer } from '../helpers/stripe';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { WEBHOOK_TEST_ENV } from '../setup/start-server';
import { signPayload } from '../stripe-emulator/webhooks';

/**
 * Disputes (docs/processors.md, "Disputes") against the Stripe emulator and the real app: a
 * payment made with Stripe's `pm_card_createDispute` is disputed at Stripe, whose webhooks make
 * our dispute (`dispute.created` to the seller's endpoint); evidence goes to Stripe through the
 * API; Stripe's decision closes it (`dispute.closed`), and a lost one comes off the net volume.
 */
let stripe: Awaited<ReturnType<typeof startStripeServer>>;
let pool: pg.Pool;
let db: ReturnType<typeof serverDatabase>;
let receiver: Receiver;
let signingSecret: string;
let merchantId: string;
let demoKey: string;
let stripeEndpoint: Stripe.WebhookEndpoint & { secret: string };

beforeAll(async () => {
  receiver = await startReceiver();
  stripe = await startStripeServer({ ...WEBHOOK_TEST_ENV, PAYMENT_RECONCILE_DELAY_MS: '600000' });
  pool = serverPool(stripe.server.databaseUrl, 2);
  db = serverDatabase(pool);
  demoKey = /Demo API key\s+(\S+)/.exec(stripe.server.output())![1]!;
  const endpoint = await stripe.api.post('/api/WebhookEndpoint', {
    url: `${receiver.url}/hook`,
    events: ['dispute.created', 'dispute.updated', 'dispute.closed'],
  });
  expect(endpoint.status, endpoint.text).toBe(201);
  signingSecret = endpoint.body.signingSecret;
  [{ merchantId }] = (await db.select({ merchantId: webhookEndpoints.merchantId }).from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.body.id))) as [
    { merchantId: string },
  ];
  stripeEndpoint = (await waitFor(async () => [...stripe.emulator.webhooks.endpoints.values()][0])) as unknown as typeof stripeEndpoint;
}, 240_000);

afterAll(async () => {
  await pool?.end();
  await stripe?.stop();
  await receiver?.close();
}, 60_000);

const withKey = (key: string) => ({
  get: (path: string) => call('GET', path, { key, baseUrl: stripe.server.baseUrl }),
  post: (path: string, body: unknown, idempotencyKey: string | null = crypto.randomUUID()) =>
    call('POST', path, { key, body, headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}, baseUrl: stripe.server.baseUrl }),
});

const seller = () => withKey(demoKey);

async function keyWith(scopes: readonly Scope[]) {
  return withKey((await createApiKey(db, { merchantId, name: scopes.join(','), scopes })).secret);
}

/** A paid checkout whose card Stripe's test mode disputes right after the charge. */
async function disputedPayment(amount: number, email: string): Promise<string> {
  const product = await seller().post('/api/Product', { name: 'Framed print' });
  const price = await seller().post('/api/Price', { productId: product.body.id, type: 'OneTime', amount, currency: 'USD' });
  const checkout = await seller().post('/api/Checkout', { priceId: price.body.id, customerEmail: email, tokenRef: 'pm_card_createDispute' });
  expect(checkout.status, checkout.text).toBe(201);
  expect(checkout.body).toMatchObject({ paid: true, payment: { status: 'succeeded' } });
  return checkout.body.payment.id;
}

async function disputeOf(paymentId: string, until: (dispute: any) => boolean = () => true) {
  return waitFor(async () => {
    const list = await seller().get(`/api/Dispute?paymentId=${paymentId}`);
    expect(list.status, list.text).toBe(200);
    const [dispute] = list.body.data;
    return dispute && until(dispute) ? dispute : undefined;
  }, 30_000);
}

/** The deliveries the seller's endpoint received of one event type about one dispute, each verified as a receiver would. */
function delivered(type: string, disputeId: string) {
  return receiver.received
    .map((request) => ({ request, body: JSON.parse(request.body) }))
    .filter(({ body }) => body.type === type && body.data.object.id === disputeId)
    .map(({ request, body }) => {
      const header = String(request.headers['x-service-signature']);
      const t = Number(/t=(\d+)/.exec(header)![1]);
      expect(header).toContain(`v1=${computeSignature(signingSecret, t, request.body)}`);
      return body;
    });
}

const waitForDelivery = (type: string, disputeId: string) => waitFor(async () => delivered(type, disputeId)[0], 30_000);

async function eventTypesOf(disputeId: string) {
  const rows = await db
    .select({ type: events.type })
    .from(events)
    .where(and(eq(events.merchantId, merchantId), sql`${events.data}->'object'->>'id' = ${disputeId}`))
    .orderBy(events.createdAt, events.id);
  return rows.map((row) => row.type);
}

const stripeUpdatesOf = (reference: string) => stripe.emulator.requests.filter((r) => r.method === 'POST' && r.path === `/v1/disputes/${reference}`);

const closeAtStripe = (reference: string, outcome: 'won' | 'lost') =>
  fetch(`${stripe.emulator.baseUrl}/emulator/test-helpers/disputes/${reference}/close`, { method: 'POST', body: new URLSearchParams({ outcome }) });

describe('disputes from Stripe', () => {
  let paymentId: string;
  let dispute: any;

  it('a payment made with pm_card_createDispute is disputed: dispute.created to the seller, GET /api/Dispute lists it, the payment shows it', async () => {
    paymentId = await disputedPayment(4200, 'chargeback@example.com');
    dispute = await disputeOf(paymentId);
    const created = await waitForDelivery('dispute.created', dispute.id);
    expect(created.data.object).toEqual(dispute);
    expect(dispute).toMatchObject({
      id: expect.stringMatching(/^dsp_/),
      paymentId,
      status: 'needs_response',
      amount: 4200,
      currency: 'USD',
      reason: 'fraudulent',
      evidence: {},
      evidenceSubmissionCount: 0,
      fundsWithdrawn: true,
      fundsReinstated: false,
      processor: { name: 'stripe', mode: 'test', reference: expect.stringMatching(/^dp_/) },
      closedAt: null,
    });
    expect(new Date(dispute.evidenceDueBy).getTime()).toBeGreaterThan(Date.now());
    expect(stripe.emulator.store.disputes.get(dispute.processor.reference)).toMatchObject({ amount: 4200, status: 'needs_response' });

    // Both of Stripe's events (created, funds_withdrawn) were processed; each read the dispute back, so the second found nothing new.
    const outcomes = await waitFor(async () => {
      const rows = await db
        .select()
        .from(processorEvents)
        .where(sql`${processorEvents.type} like 'charge.dispute.%' and ${processorEvents.payload}->'data'->'object'->>'id' = ${dispute.processor.reference}`);
      return rows.length === 2 && rows.every((row) => row.processedAt) ? rows.map((row) => row.outcome).sort() : undefined;
    });
    expect(outcomes).toEqual([
      `dispute ${dispute.id} of payment ${paymentId}: created (needs_response)`,
      `dispute ${dispute.id} of payment ${paymentId}: unchanged (needs_response)`,
    ]);
    expect(await eventTypesOf(dispute.id)).toEqual(['dispute.created']);

    expect((await seller().get(`/api/Dispute/${dispute.id}`)).body).toEqual(dispute);
    const payment = await seller().get(`/api/Payment/${paymentId}`);
    expect(payment.body).toMatchObject({ status: 'succeeded', disputes: [dispute] });

    // A charged-back payment is not refunded: refused before anything is recorded or Stripe is asked.
    const refundsAsked = stripe.emulator.requests.filter((r) => r.path === '/v1/refunds').length;
    const refused = await seller().post(`/api/Payment/${paymentId}/Refund`, {});
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ code: 'INVALID_STATE', detail: expect.stringContaining(`is disputed (${dispute.id}, needs_response)`) });
    expect((await seller().get(`/api/Payment/${paymentId}/Refund`)).body.data).toEqual([]);
    expect(stripe.emulator.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(refundsAsked);
  });

  it('lists with the list conventions: filters by status and payment, pages, orders by amount', async () => {
    const second = await disputedPayment(1500, 'second@example.com');
    await disputeOf(second);
    const first = await seller().get('/api/Dispute?pageSize=1');
    expect(first.body).toMatchObject({ page: 1, pageSize: 1, totalCount: 2, hasMore: true, data: [{ paymentId: second }] });
    const byAmount = await seller().get('/api/Dispute?orderBy=amount&orderDirection=asc');
    expect(byAmount.body.data.map((d: any) => d.amount)).toEqual([1500, 4200]);
    expect((await seller().get('/api/Dispute?status=needs_response')).body.totalCount).toBe(2);
    expect((await seller().get('/api/Dispute?status=won')).body.totalCount).toBe(0);
    expect((await seller().get(`/api/Dispute?paymentId=${second}`)).body.totalCount).toBe(1);
    const refused = await seller().get('/api/Dispute?status=maybe');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].path).toBe('status');
  });

  it("refuses another seller's dispute (404), keys without the scope (403) and bad evidence (400), asking Stripe nothing", async () => {
    const suffix = crypto.randomBytes(5).toString('hex');
    const other = await createMerchant(db, {
      email: `other-${suffix}@example.com`,
      name: `Other ${suffix}`,
      accountType: 'Business',
      password: 'another long password',
    });
    const otherSeller = withKey((await createApiKey(db, { merchantId: other.id, name: 'all', scopes: SCOPES })).secret);
    const hidden = await otherSeller.get(`/api/Dispute/${dispute.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('NOT_FOUND');
    expect((await otherSeller.get('/api/Dispute')).body.totalCount).toBe(0);
    expect((await otherSeller.get(`/api/Payment/${paymentId}`)).status).toBe(404);
    expect((await otherSeller.post(`/api/Dispute/${dispute.id}/Evidence`, { uncategorizedText: 'winning_evidence' })).status).toBe(404);

    expect((await call('GET', '/api/Dispute', { baseUrl: stripe.server.baseUrl })).status).toBe(401);
    expect((await (await keyWith(['payments:read', 'refunds:write'])).get('/api/Dispute')).body).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      requiredScope: 'disputes:read',
    });
    const readOnly = await keyWith(['disputes:read']);
    expect((await readOnly.get(`/api/Dispute/${dispute.id}`)).status).toBe(200);
    expect((await readOnly.post(`/api/Dispute/${dispute.id}/Evidence`, { uncategorizedText: 'x' })).body).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      requiredScope: 'disputes:write',
    });

    const empty = await seller().post(`/api/Dispute/${dispute.id}/Evidence`, { submit: true });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ path: 'uncategorizedText', message: 'Give at least one evidence field.' }]);
    const file = await seller().post(`/api/Dispute/${dispute.id}/Evidence`, { receipt: 'file_123' });
    expect(file.status).toBe(400);
    expect(file.body.errors[0].path).toBe('receipt');
    expect((await seller().post(`/api/Dispute/${dispute.id}/Evidence`, { uncategorizedText: 'x' }, null)).body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(stripeUpdatesOf(dispute.processor.reference)).toEqual([]);
  });

  it('sends evidence to Stripe once per Idempotency-Key (dispute.updated, under_review); the issuer deciding for the seller closes it won, money back', async () => {
    const key = crypto.randomUUID();
    const evidence = { productDescription: 'A framed print, 40 × 50 cm', shippingTrackingNumber: '1Z999AA10123456784' };
    const sent = await seller().post(`/api/Dispute/${dispute.id}/Evidence`, evidence, key);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({ id: dispute.id, status: 'under_review', evidence, evidenceSubmissionCount: 1 });
    expect(stripeUpdatesOf(dispute.processor.reference).map((r) => r.params)).toEqual([
      {
        evidence: { product_description: evidence.productDescription, shipping_tracking_number: evidence.shippingTrackingNumber },
        submit: 'true',
        expand: ['payment_intent'],
      },
    ]);
    const updated = await waitForDelivery('dispute.updated', dispute.id);
    expect(updated.data).toMatchObject({
      object: { status: 'under_review', evidence },
      previousAttributes: { status: 'needs_response', evidence: {}, evidenceSubmissionCount: 0 },
    });

    const replay = await seller().post(`/api/Dispute/${dispute.id}/Evidence`, evidence, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(sent.body);
    const late = await seller().post(`/api/Dispute/${dispute.id}/Evidence`, { uncategorizedText: 'One more thing' });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'INVALID_STATE', state: 'under_review' });
    expect(stripeUpdatesOf(dispute.processor.reference)).toHaveLength(1);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'dispute.evidence_submitted'), eq(auditLog.targetId, dispute.id)));
    expect(audit!.metadata).toEqual({ paymentId, fields: ['productDescription', 'shippingTrackingNumber'], submitted: true });

    expect((await closeAtStripe(dispute.processor.reference, 'won')).status).toBe(200);
    const closed = await waitForDelivery('dispute.closed', dispute.id);
    expect(closed.data.object).toMatchObject({ status: 'won', fundsWithdrawn: true, fundsReinstated: true, closedAt: expect.any(String) });
    expect(closed.data.previousAttributes).toMatchObject({ status: 'under_review', closedAt: null });
    await waitFor(async () => ((await eventTypesOf(dispute.id)).length === 3 ? true : undefined));
    expect(await eventTypesOf(dispute.id)).toEqual(['dispute.created', 'dispute.updated', 'dispute.closed']);
    dispute = (await seller().get(`/api/Dispute/${dispute.id}`)).body;
  });

  it("closes a dispute won by Stripe's test evidence winning_evidence: dispute.closed", async () => {
    const disputed = await disputeOf((await seller().get('/api/Dispute?status=needs_response')).body.data[0].paymentId);
    const sent = await seller().post(`/api/Dispute/${disputed.id}/Evidence`, { uncategorizedText: 'winning_evidence' });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({ evidence: { uncategorizedText: 'winning_evidence' }, evidenceSubmissionCount: 1 });
    const closed = await waitForDelivery('dispute.closed', disputed.id);
    expect(closed.data.object).toMatchObject({ status: 'won', fundsReinstated: true });
    expect((await seller().get(`/api/Dispute/${disputed.id}`)).body).toMatchObject({ status: 'won', closedAt: expect.any(String) });
  });

  it("a lost dispute (losing_evidence) is closed lost, money kept by the customer, and comes off the overview's net volume", async () => {
    const lostPayment = await disputedPayment(2700, 'lost@example.com');
    const disputed = await disputeOf(lostPayment);
    const overview = () => loadOverview(db, merchantId, { range: '7d', timeZone: 'UTC', at: now() });
    const sum = (values: number[] | undefined) => (values ?? []).reduce((total, value) => total + Number(value), 0);
    const before = await overview();
    expect(before.disputesLost).toEqual({});

    expect((await seller().post(`/api/Dispute/${disputed.id}/Evidence`, { uncategorizedText: 'losing_evidence' })).status).toBe(200);
    const closed = await waitForDelivery('dispute.closed', disputed.id);
    expect(closed.data.object).toMatchObject({ status: 'lost', fundsWithdrawn: true, fundsReinstated: false, closedAt: expect.any(String) });

    const after = await overview();
    expect(sum(after.disputesLost.USD?.current)).toBe(2700);
    expect(sum(after.grossVolume.USD!.current)).toBe(sum(before.grossVolume.USD!.current));
    expect(sum(after.netVolume.USD!.current)).toBe(sum(before.netVolume.USD!.current) - 2700);
  });

  it('is order-tolerant: an old event sent again changes nothing, and a state read before a newer one is not written over it', async () => {
    const [createdEvent] = await db
      .select()
      .from(processorEvents)
      .where(sql`${processorEvents.type} = 'charge.dispute.created' and ${processorEvents.payload}->'data'->'object'->>'id' = ${dispute.processor.reference}`);
    // Stripe delivering the first event again, late, under a new id (its snapshot says needs_response).
    const late = JSON.stringify({ ...createdEvent!.payload, id: `evt_late${crypto.randomBytes(8).toString('hex')}` });
    const answer = await fetch(`${stripe.server.baseUrl}/api/processors/stripe/webhook`, {
      method: 'POST',
      body: late,
      headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(late, stripeEndpoint.secret) },
    });
    expect(answer.status).toBe(200);
    const outcome = await waitFor(async () => {
      const [row] = await db
        .select()
        .from(processorEvents)
        .where(eq(processorEvents.id, JSON.parse(late).id));
      return row?.processedAt ? row.outcome : undefined;
    });
    expect(outcome).toBe(`dispute ${dispute.id} of payment ${paymentId}: unchanged (won)`);

    // A read of Stripe's earlier state (under_review) arriving after `won` was written: stale, nothing written.
    const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
    const stale = await db.transaction((tx) =>
      recordProcessorDispute(tx, payment!, {
        reference: dispute.processor.reference,
        mode: 'test',
        paymentKey: null,
        amount: 4200,
        currency: 'USD',
        reason: 'fraudulent',
        status: 'under_review',
        rawStatus: 'under_review',
        evidenceDueBy: new Date(dispute.evidenceDueBy),
        evidence: {},
        evidenceSubmissionCount: 1,
        fundsWithdrawn: true,
        fundsReinstated: false,
      }),
    );
    expect(stale.change).toBe('stale');
    const [row] = await db.select().from(disputes).where(eq(disputes.id, dispute.id));
    expect(row).toMatchObject({ status: 'won', fundsReinstated: true });
    expect(await eventTypesOf(dispute.id)).toEqual(['dispute.created', 'dispute.updated', 'dispute.closed']);
  });
});
