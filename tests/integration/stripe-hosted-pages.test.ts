import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl } from '../helpers/api';
import { startStripeServer } from '../helpers/stripe';

/**
 * The hosted pages in Stripe mode (docs/processors.md, "PCI scope"): they load Stripe.js from
 * STRIPE_JS_URL and their Content-Security-Policy allows exactly Stripe.js's origin (script,
 * frames) and Stripe's API (connect); in sandbox mode no other origin is allowed. Paying through
 * the card element is e2e/stripe-checkout.spec.ts.
 */
let stripe: Awaited<ReturnType<typeof startStripeServer>>;

beforeAll(async () => {
  stripe = await startStripeServer();
}, 240_000);

afterAll(async () => {
  await stripe?.stop();
}, 60_000);

const directives = (policy: string | null) => new Map((policy ?? '').split('; ').map((d) => [d.split(' ')[0]!, d] as const));

describe('hosted pages in Stripe mode', () => {
  it("allow Stripe.js's origin (script, frames) and Stripe's API (connect), and show no card number field", async () => {
    const link = await stripe.api.post('/api/PaymentLink', { name: 'Poster', unitAmount: 2500, currency: 'USD' });
    expect(link.status, link.text).toBe(201);
    const page = await fetch(`${stripe.server.baseUrl}/pay/${link.body.token}`);
    expect(page.status).toBe(200);
    const policy = directives(page.headers.get('content-security-policy'));
    const origin = stripe.emulator.baseUrl;
    expect(policy.get('script-src')).toMatch(new RegExp(`^script-src 'self' 'nonce-[^']+' 'strict-dynamic' ${origin}$`));
    expect(policy.get('frame-src')).toBe(`frame-src 'self' ${origin}`);
    expect(policy.get('connect-src')).toBe(`connect-src 'self' ${origin}`);
    expect(policy.get('default-src')).toBe("default-src 'self'");
    const html = await page.text();
    expect(html).not.toContain('name="cardNumber"');
    expect(html).toContain(stripe.emulator.stripeJsUrl);
    expect(html).toContain('pk_test_paybaseintegration');
    // The note under the order (the client's messages carry both words; only one is shown).
    expect(html).toMatch(/<p class="[^"]*">Stripe test mode: no real money moves/);
    expect(html).not.toMatch(/<p class="[^"]*">Sandbox: no real money moves/);
  });

  it("allow no other origin than Stripe's in sandbox mode either (any seller may connect a Stripe account)", async () => {
    const page = await fetch(`${baseUrl()}/`);
    const policy = directives(page.headers.get('content-security-policy'));
    expect(policy.get('script-src')).toMatch(/^script-src 'self' 'nonce-[^']+' 'strict-dynamic' https:\/\/js\.stripe\.com$/);
    expect(policy.get('frame-src')).toBe("frame-src 'self' https://js.stripe.com");
    expect(policy.get('connect-src')).toBe("connect-src 'self' https://js.stripe.com https://api.stripe.com");
  });
});
