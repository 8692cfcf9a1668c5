import { eq, like } from 'drizzle-orm';
import type pg from 'pg';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processorEvents, stripeWebhookEndpoints } from '@/lib/db/schema';
import { waitFor } from '../helpers/payments';
import { serverDatabase, serverPool } from '../helpers/server-pool';
import { startStripeServer } from '../helpers/stripe';
import { signPayload } from '../stripe-emulator/webhooks';

/**
 * Stripe's webhooks in (docs/processors.md, "Webhooks from Stripe"): with no STRIPE_WEBHOOK_SECRET
 * the platform registers its endpoint at Stripe at start and keeps the secret sealed; events are
 * verified, stored once by id and processed by the worker. Reconciliation by polling is set out
 * of reach (PAYMENT_RECONCILE_DELAY_MS ten minutes), so what settles a payment here is the webhook.
 */
let stripe: Awaited<ReturnType<typeof startStripeServer>>;
let pool: pg.Pool;
let db: ReturnType<typeof serverDatabase>;
let endpoint: Stripe.WebhookEndpoint & { secret: string };

beforeAll(async () => {
  stripe = await startStripeServer({ PAYMENT_RECONCILE_DELAY_MS: '600000' });
  pool = serverPool(stripe.server.databaseUrl, 2);
  db = serverDatabase(pool);
  endpoint = (await waitFor(async () => [...stripe.emulator.webhooks.endpoints.values()][0])) as unknown as typeof endpoint;
}, 240_000);

afterAll(async () => {
  await pool?.end();
  await stripe?.stop();
}, 60_000);

async function oneTimePrice(amount: number) {
  const product = await stripe.api.post('/api/Product', { name: 'Print' });
  return (await stripe.api.post('/api/Price', { productId: product.body.id, type: 'OneTime', amount, currency: 'USD' })).body.id as string;
}

const webhookUrl = () => `${stripe.server.baseUrl}/api/processors/stripe/webhook`;

async function paidCheckout(checkoutId: string) {
  return waitFor(async () => {
    const read = await stripe.api.get(`/api/Checkout/${checkoutId}`);
    return read.body.paid ? read.body : undefined;
  });
}

describe("Stripe's webhooks in", () => {
  it('registers the endpoint at Stripe at start, for PUBLIC_URL, keeping its secret sealed', async () => {
    expect(endpoint.url).toMatch(/\/api\/processors\/stripe\/webhook$/);
    expect(endpoint.enabled_events).toEqual(expect.arrayContaining(['payment_intent.succeeded', 'charge.dispute.created', 'payment_method.detached']));
    const [row] = await db.select().from(stripeWebhookEndpoints);
    expect(row).toMatchObject({ connection: 'platform', mode: 'test', stripeEndpointId: endpoint.id, url: endpoint.url });
    expect(row!.sealedSecret).not.toContain(endpoint.secret);
    expect(row!.sealedSecret).not.toContain(endpoint.secret.slice('whsec_'.length));
  });

  it('settles a 3-D Secure payment from payment_intent.succeeded, processed by the worker', async () => {
    const priceId = await oneTimePrice(1800);
    const answer = await stripe.api.post('/api/Checkout', { priceId, customerEmail: 'hook@example.com', tokenRef: 'pm_card_authenticationRequired' });
    expect(answer.body.payment.status).toBe('requires_action');
    const url = new URL(answer.body.payment.nextAction.url);
    await fetch(url, { method: 'POST', body: new URLSearchParams({ secret: url.searchParams.get('secret')!, result: 'complete' }) });
    expect(await paidCheckout(answer.body.id)).toMatchObject({ status: 'paid', payment: { status: 'succeeded' } });
    // Settled by one of its two events: payment_intent.requires_action asks Stripe too, and when it is
    // processed after the customer authenticated it may be the one; the other then finds nothing to do
    // ("nothing to do: payment … is succeeded"). The outcome is written just after the settlement commits.
    const paymentId = answer.body.payment.id as string;
    const outcomes = await waitFor(async () => {
      const events = await db.select().from(processorEvents).where(like(processorEvents.type, 'payment_intent.%'));
      const mine = events.filter((e) => e.outcome?.includes(`payment ${paymentId}`)).map((e) => e.outcome);
      return mine.length === 2 ? mine : undefined;
      // A job that met the settlement's lock is retried by graphile-worker with its backoff (seconds, then tens of seconds).
    }, 90_000);
    expect(outcomes).toContain(`payment ${paymentId}: succeeded`);
  }, 120_000);

  it('settles an unknown charge (Stripe took it, its answers were lost) by retrieving the PaymentIntent when its event comes', async () => {
    const priceId = await oneTimePrice(2100);
    // The first request and both SDK retries lose their answers; the charge was made once.
    stripe.emulator.failNextRequests(3, { afterHandling: true, request: 'POST /v1/payment_intents' });
    const answer = await stripe.api.post('/api/Checkout', { priceId, customerEmail: 'lost@example.com', tokenRef: 'pm_card_visa' });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.payment.status).toBe('unknown');
    expect(await paidCheckout(answer.body.id)).toMatchObject({
      status: 'paid',
      payment: { status: 'succeeded', processor: { reference: expect.stringMatching(/^pi_/) } },
    });
    const charged = [...stripe.emulator.store.paymentIntents.values()].filter((pi) => pi.amount === 2100);
    expect(charged).toHaveLength(1);
  });

  it('stores an event once however often it comes, and refuses one whose signature does not verify', async () => {
    const [stored] = await db.select().from(processorEvents).limit(1);
    const payload = JSON.stringify(stored!.payload);
    const again = await fetch(webhookUrl(), { method: 'POST', body: payload, headers: { 'stripe-signature': signPayload(payload, endpoint.secret) } });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('received before');
    expect(await db.select().from(processorEvents).where(eq(processorEvents.id, stored!.id))).toHaveLength(1);

    const forged = JSON.stringify({ ...stored!.payload, id: 'evt_forged' });
    for (const signature of [signPayload(forged, 'whsec_notthesecret'), signPayload(payload, endpoint.secret), '']) {
      const refused = await fetch(webhookUrl(), { method: 'POST', body: forged, headers: { 'stripe-signature': signature } });
      expect(refused.status).toBe(400);
    }
    expect(await db.select().from(processorEvents).where(eq(processorEvents.id, 'evt_forged'))).toHaveLength(0);

    // A seller connection's endpoint verifies with that connection's secret only: the platform's, or an unknown connection, is refused.
    const elsewhere = await fetch(`${webhookUrl()}/pcn_01NOTACONNECTION0000000000`, {
      method: 'POST',
      body: payload,
      headers: { 'stripe-signature': signPayload(payload, endpoint.secret) },
    });
    expect(elsewhere.status).toBe(400);
    expect(await db.select().from(processorEvents).where(eq(processorEvents.connection, 'pcn_01NOTACONNECTION0000000000'))).toHaveLength(0);
  });
});
