import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq, inArray, like } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { paymentMethods, payments, sandboxProcessorOperations } from '@/lib/db/schema';
import { loadHostedCheckout, payHostedCheckout, quoteHostedCheckout, type HostedPaymentForm } from '@/lib/checkout/hosted';
import { loadHostedCheckoutResult } from '@/lib/checkout/hosted-result';
import { SandboxProcessor } from '@/lib/payments/processor/sandbox';
import { newMerchant } from '../helpers/merchants';
import { adHocLink, oneTimePrice } from '../helpers/payments';

function form(token: string, overrides: Partial<HostedPaymentForm> = {}): HostedPaymentForm {
  return {
    token,
    attemptKey: crypto.randomUUID(),
    email: 'hosted@example.com',
    name: 'Hosted Buyer',
    cardNumber: '4242 4242 4242 4242',
    expiry: '12 / 34',
    cvc: '123',
    promotionCode: '',
    saveCard: false,
    ...overrides,
  };
}

describe('sandbox processor', () => {
  const sandbox = new SandboxProcessor();

  it('tokenizes test cards without keeping the number, and refuses bad input', async () => {
    const card = await sandbox.tokenizeCard({ number: '4000-0000-0000-0002', expMonth: 1, expYear: 40, cvc: '999' });
    expect(card).toMatchObject({ brand: 'visa', last4: '0002', expMonth: 1, expYear: 2040 });
    expect(card.token).not.toContain('4000000000000002');
    expect(Buffer.from(card.token.slice('tok_sbx_'.length), 'base64url').toString()).not.toContain('4000000000000002');
    expect(await sandbox.describeToken(card.token)).toEqual({ brand: 'visa', last4: '0002', expMonth: 1, expYear: 2040 });
    await expect(sandbox.tokenizeCard({ number: '4242424242424241', expMonth: 1, expYear: 40, cvc: '1' })).rejects.toThrow(/invalid/);
    await expect(sandbox.tokenizeCard({ number: '4111111111111111', expMonth: 1, expYear: 40, cvc: '123' })).rejects.toThrow(/test cards/);
    await expect(sandbox.tokenizeCard({ number: '4242424242424242', expMonth: 13, expYear: 40, cvc: '123' })).rejects.toThrow(/month/);
    await expect(sandbox.tokenizeCard({ number: '4242424242424242', expMonth: 1, expYear: 2001, cvc: '123' })).rejects.toThrow(/past/);
    await expect(sandbox.tokenizeCard({ number: '4242424242424242', expMonth: 1, expYear: 40, cvc: '12' })).rejects.toThrow(/security code/);
    expect(await sandbox.describeToken('tok_made_up')).toBeUndefined();
  });

  it('gives each test card its fixed outcome', async () => {
    // Each charge its own idempotency key: the sandbox answers a repeated key with its first outcome.
    const charge = (token: string, idempotencyKey = `pay_test_${crypto.randomUUID()}`) =>
      sandbox.charge({ token, amount: 100, currency: 'USD', idempotencyKey, offSession: false });
    expect((await charge('tok_visa')).status).toBe('succeeded');
    expect(await charge('tok_declined')).toMatchObject({ status: 'failed', declineCode: 'card_declined' });
    expect(await charge('tok_insufficient_funds')).toMatchObject({ status: 'failed', declineCode: 'insufficient_funds' });
    const unknownKey = `pay_test_${crypto.randomUUID()}`;
    const unknown = await charge('tok_unknown', unknownKey);
    expect(unknown.status).toBe('unknown');
    expect(await sandbox.retrieveCharge(unknownKey)).toEqual({ status: 'succeeded', reference: `ch_sbx_unknown_${unknownKey}` });
    expect((await charge('tok_unknown', unknownKey)).status).toBe('succeeded');
    expect((await charge('tok_declined', unknownKey)).status).toBe('succeeded');
    expect(await sandbox.retrieveCharge(`pay_never_${crypto.randomUUID()}`)).toEqual({ status: 'not_found' });
    const entered = await sandbox.tokenizeCard({ number: '4000000000009995', expMonth: 1, expYear: 40, cvc: '123' });
    expect(await charge(entered.token)).toMatchObject({ status: 'failed', declineCode: 'insufficient_funds' });
    const declinedKey = `pay_test_${crypto.randomUUID()}`;
    await charge('tok_insufficient_funds', declinedKey);
    expect(await sandbox.retrieveCharge(declinedKey)).toMatchObject({ status: 'failed', declineCode: 'insufficient_funds' });
    // A key canceled before any charge (recovery of a customer-present move): a later charge with it fails.
    const abandonedKey = `pay_test_${crypto.randomUUID()}`;
    expect(await sandbox.cancelCharge({ idempotencyKey: abandonedKey, amount: 100, currency: 'USD' })).toEqual({ status: 'canceled' });
    expect(await charge('tok_visa', abandonedKey)).toMatchObject({ status: 'failed', declineCode: 'canceled' });
    // A key charged first: the cancel answers the charge.
    const chargedKey = `pay_test_${crypto.randomUUID()}`;
    await charge('tok_visa', chargedKey);
    expect(await sandbox.cancelCharge({ idempotencyKey: chargedKey, amount: 100, currency: 'USD' })).toMatchObject({ status: 'succeeded' });
    // A charge the processor never settles: unknown when made and whenever asked.
    const neverKey = `pay_test_${crypto.randomUUID()}`;
    expect((await charge('tok_processing_error', neverKey)).status).toBe('unknown');
    expect(await sandbox.retrieveCharge(neverKey)).toEqual({ status: 'unknown' });
  });
});

describe('hosted checkout (/pay/{token})', () => {
  it('shows the seller, item and total in the currency decimals', async () => {
    const { api, merchant } = await newMerchant();
    const link = await adHocLink(api, { name: 'Ramen kit', unitAmount: 1250, currency: 'JPY', quantity: 2 });
    const view = await loadHostedCheckout(getDb(), link.token);
    expect(view).toMatchObject({ sellerName: merchant.name, name: 'Ramen kit', quantity: 2, unitAmount: '¥1,250', total: '¥2,500', unavailableReason: null });
    expect(await loadHostedCheckout(getDb(), 'no-such-token-here')).toBeUndefined();
  });

  it('says why a link cannot be paid', async () => {
    const { api } = await newMerchant();
    const price = await oneTimePrice(api, 100);
    const recurring = await api.post('/api/Price', { productId: price.productId, type: 'Recurring', amount: 100, currency: 'USD', interval: 'month' });
    const subscriptionLink = await api.post('/api/PaymentLink', { priceId: recurring.body.id });
    // A link to a Recurring price starts a subscription (lib/checkout/subscription-handoff.ts).
    expect((await loadHostedCheckout(getDb(), subscriptionLink.body.token))!.unavailableReason).toBeNull();
    const archived = await adHocLink(api);
    await api.post(`/api/PaymentLink/${archived.id}/Archive`);
    expect((await loadHostedCheckout(getDb(), archived.token))!.unavailableReason).toMatch(/archived/);
    expect(await payHostedCheckout(getDb(), form(archived.token))).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/archived/) });
  });

  it('pays once per attempt, saves the card only when asked, and lets a declined customer retry', async () => {
    const { api, merchant } = await newMerchant();
    const link = await adHocLink(api, { successUrl: 'https://shop.example.com/done?order=7' });
    const declined = await payHostedCheckout(getDb(), form(link.token, { cardNumber: '4000000000000002' }));
    expect(declined).toEqual({ kind: 'declined', message: 'Your card was declined.' });

    const attempt = form(link.token, { saveCard: true });
    const results = (await Promise.all(Array.from({ length: 5 }, () => payHostedCheckout(getDb(), attempt)))) as { kind: string; checkoutId: string }[];
    expect(results.map((r) => r.kind)).toEqual(Array(5).fill('paid'));
    expect(new Set(results.map((r) => r.checkoutId)).size).toBe(1);
    const replay = await payHostedCheckout(getDb(), attempt);
    expect(replay).toEqual({ kind: 'paid', checkoutId: results[0]!.checkoutId });
    const rows = await getDb().select().from(payments).where(eq(payments.merchantId, merchant.id));
    expect(rows.filter((p) => p.status === 'succeeded')).toHaveLength(1);

    const checkout = (await api.get(`/api/Checkout/${results[0]!.checkoutId}`)).body;
    expect(checkout.paid).toBe(true);
    const methods = await api.get(`/api/Customer/${checkout.customerId}/PaymentMethod`);
    expect(methods.body.data).toEqual([expect.objectContaining({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, isDefault: true })]);
    expect(checkout.payment.paymentMethodId).toBe(methods.body.data[0].id);
    const stored = await getDb().select().from(paymentMethods).where(eq(paymentMethods.merchantId, merchant.id));
    expect(JSON.stringify(stored)).not.toContain('4242424242424242');

    const result = await loadHostedCheckoutResult(getDb(), link.token, checkout.id);
    expect(result).toMatchObject({ status: 'paid', total: '$50.00', card: 'Visa •••• 4242' });
    expect(result!.continueUrl).toBe(`https://shop.example.com/done?order=7&checkoutId=${checkout.id}`);
    const otherLink = await adHocLink(api);
    expect(await loadHostedCheckoutResult(getDb(), otherLink.token, checkout.id)).toBeUndefined();
  });

  it('a double-submitted form for a subscription link starts one subscription with one charge', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 100);
    const recurring = await api.post('/api/Price', { productId: price.productId, type: 'Recurring', amount: 1500, currency: 'USD', interval: 'month' });
    const link = await api.post('/api/PaymentLink', { priceId: recurring.body.id });
    const attempt = form(link.body.token);
    const results = (await Promise.all(Array.from({ length: 5 }, () => payHostedCheckout(getDb(), attempt)))) as { kind: string; checkoutId: string }[];
    expect(results.map((r) => r.kind)).toEqual(Array(5).fill('paid'));
    expect(new Set(results.map((r) => r.checkoutId)).size).toBe(1);
    const charged = await getDb().select().from(payments).where(eq(payments.merchantId, merchant.id));
    expect(charged.map((p) => p.status)).toEqual(['succeeded']);
    // The processor was asked to charge once (a twin's own charge would be booked under its own key).
    const keys = charged.map((p) => p.processorKey!);
    const booked = await getDb().select().from(sandboxProcessorOperations).where(inArray(sandboxProcessorOperations.idempotencyKey, keys));
    expect(booked).toHaveLength(1);
    const all = await getDb()
      .select()
      .from(sandboxProcessorOperations)
      .where(like(sandboxProcessorOperations.idempotencyKey, `${(await api.get('/api/Subscription')).body.data[0].id}%`));
    expect(all).toHaveLength(1);
    expect((await api.get('/api/Subscription')).body.totalCount).toBe(1);
  });

  it('reports card and promotion input errors on their fields', async () => {
    const { api } = await newMerchant();
    const link = await adHocLink(api, { unitAmount: 999 });
    expect(await payHostedCheckout(getDb(), form(link.token, { email: 'nope' }))).toMatchObject({ kind: 'invalid', field: 'email' });
    expect(await payHostedCheckout(getDb(), form(link.token, { cardNumber: '1234' }))).toMatchObject({ kind: 'invalid', field: 'cardNumber' });
    expect(await payHostedCheckout(getDb(), form(link.token, { expiry: '13/30' }))).toMatchObject({ kind: 'invalid', field: 'expiry' });
    expect(await payHostedCheckout(getDb(), form(link.token, { expiry: 'soon' }))).toMatchObject({ kind: 'invalid', field: 'expiry' });
    expect(await payHostedCheckout(getDb(), form(link.token, { cvc: 'x' }))).toMatchObject({ kind: 'invalid', field: 'cvc' });
    expect(await payHostedCheckout(getDb(), form(link.token, { promotionCode: 'MISSING' }))).toMatchObject({ kind: 'invalid', field: 'promotionCode' });
    const coupon = await api.post('/api/Coupon', { percentOff: 15 });
    await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'HOSTED15' });
    expect(await quoteHostedCheckout(getDb(), link.token, { promotionCode: 'hosted15' })).toEqual({
      ok: true,
      code: 'HOSTED15',
      discount: '$1.50',
      taxLines: [],
      total: '$8.49',
      subscription: null,
    });
    expect(await quoteHostedCheckout(getDb(), link.token, { promotionCode: 'nope' })).toMatchObject({ ok: false });
  });
});
