import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { stripeModeEnv } from '../helpers/stripe-env';
import { startServer, type RunningServer } from '../setup/server';
import { StripeEmulator } from '../stripe-emulator/server';

/**
 * An installation that moves from the sandbox to Stripe, then from Stripe's test mode to live
 * (docs/processors.md, "Changing processor or mode"): a payment is refunded by the processor that
 * made it. A sandbox payment is refunded by the sandbox, never sent to Stripe; a Stripe test
 * payment cannot be refunded with a live key, and is refused before anything is recorded.
 */
let server: RunningServer | undefined;
const emulator = new StripeEmulator();

afterAll(async () => {
  await server?.stop();
  await emulator.stop();
}, 60_000);

function api(key: string) {
  return (method: string, path: string, body?: unknown) =>
    call(method, path, { key, body, baseUrl: server!.baseUrl, headers: method === 'POST' ? { 'Idempotency-Key': crypto.randomUUID() } : {} });
}

async function restart(env: Record<string, string>) {
  const { dataDir } = server!;
  await server!.kill();
  server = await startServer({ env, dataDir });
}

async function paid(request: ReturnType<typeof api>, tokenRef: string) {
  const product = await request('POST', '/api/Product', { name: 'Lamp' });
  const price = await request('POST', '/api/Price', { productId: product.body.id, type: 'OneTime', amount: 4500, currency: 'USD' });
  const checkout = await request('POST', '/api/Checkout', { priceId: price.body.id, customerEmail: 'lamp@example.com', tokenRef });
  expect(checkout.status, checkout.text).toBe(201);
  return checkout.body.payment as { id: string; processor: { name: string; mode: string } };
}

describe('refunds after the processor changed', { timeout: 300_000 }, () => {
  it('go to the processor and mode that made the payment, or are refused when it is gone', async () => {
    await emulator.start();
    server = await startServer();
    const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
    const request = api(key);
    const sandboxPayment = await paid(request, 'tok_visa');
    expect(sandboxPayment.processor).toMatchObject({ name: 'sandbox', mode: 'test' });

    await restart(stripeModeEnv(emulator));
    const refunded = await request('POST', `/api/Payment/${sandboxPayment.id}/Refund`, {});
    expect(refunded.status, refunded.text).toBe(201);
    expect(refunded.body).toMatchObject({ status: 'succeeded', processor: { name: 'sandbox' } });
    expect(emulator.requests.filter((r) => r.path === '/v1/refunds')).toEqual([]);
    const stripeTestPayment = await paid(request, 'pm_card_visa');
    expect(stripeTestPayment.processor).toMatchObject({ name: 'stripe', mode: 'test' });

    await restart({ ...stripeModeEnv(emulator), STRIPE_SECRET_KEY: 'sk_live_paybaseintegration', STRIPE_PUBLISHABLE_KEY: 'pk_live_paybaseintegration' });
    const refused = await request('POST', `/api/Payment/${stripeTestPayment.id}/Refund`, {});
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ code: 'INVALID_STATE' });
    expect(refused.text).toMatch(/stripe in test mode/);
    expect((await request('GET', `/api/Payment/${stripeTestPayment.id}/Refund`)).body.data).toEqual([]);
    expect(emulator.requests.filter((r) => r.path === '/v1/refunds')).toEqual([]);
  });
});
