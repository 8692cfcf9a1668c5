import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentMethods } from '@/lib/db/schema';
import { serverDatabase, serverPool } from '../helpers/server-pool';
import { startStripeServer } from '../helpers/stripe';
import { callServerAction, FormFields } from '../helpers/server-actions';

/**
 * Saving a card that asks for 3-D Secure with the customer present, in Stripe mode
 * (docs/processors.md, "Saved cards and 3-D Secure"), over HTTP as the pages do it: the first
 * action makes the SetupIntent on the customer's Stripe Customer and answers its client secret;
 * the customer passes the challenge (the emulator's page, as Stripe.js would show it); the second
 * action reads the SetupIntent back from Stripe and saves the card, once. The browser's clicks
 * are e2e/stripe-card-authentication.spec.ts.
 */
let stripe: Awaited<ReturnType<typeof startStripeServer>>;
let pool: pg.Pool;
let db: ReturnType<typeof serverDatabase>;

beforeAll(async () => {
  stripe = await startStripeServer();
  pool = serverPool(stripe.server.databaseUrl, 2);
  db = serverDatabase(pool);
}, 240_000);

afterAll(async () => {
  await pool?.end();
  await stripe?.stop();
}, 60_000);

const ACTIONS = 'app/portal/[customerId]/actions.ts';
type FormState = { error?: string; notice?: string; result?: { authenticate?: { clientSecret: string; setupIntent: string; last4: string } } };
type Obj = Record<string, unknown>;

/** A customer signed in to their portal as a person does: the emailed link, then their email. Answers the session cookie. */
async function portalCustomer(name: string) {
  const email = `${name.toLowerCase()}-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const created = await stripe.api.post('/api/Customer', { email, name });
  expect(created.status, created.text).toBe(201);
  const customerId = created.body.id as string;
  const baseUrl = stripe.server.baseUrl;
  const asked = await callServerAction<FormState>({
    baseUrl,
    page: `/portal/${customerId}`,
    file: ACTIONS,
    name: 'requestLinkAction',
    args: [{}, new FormFields({ customerId, locale: 'en' })],
  });
  expect(asked.value.notice).toContain('sign-in link');
  const mailbox = (await (await fetch(`${baseUrl}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`)).json()) as { data: { links: string[] }[] };
  const token = new URL(mailbox.data.flatMap((mail) => mail.links).find((href) => href.includes('/verify?token='))!).searchParams.get('token')!;
  const verified = await callServerAction({
    baseUrl,
    page: `/portal/${customerId}/verify?token=${encodeURIComponent(token)}`,
    file: ACTIONS,
    name: 'verifyPortalAction',
    args: [{}, new FormFields({ customerId, token, email, locale: 'en' })],
  });
  expect(verified.cookies.length, JSON.stringify(verified)).toBeGreaterThan(0);
  const cookie = verified.cookies.join('; ');
  const act = (action: 'addCardAction' | 'finishAddCardAction', fields: Record<string, string>) =>
    callServerAction<FormState>({
      baseUrl,
      page: `/portal/${customerId}`,
      file: ACTIONS,
      name: action,
      args: [{}, new FormFields({ customerId, locale: 'en', ...fields })],
      cookie,
    });
  return {
    customerId,
    /** Step 1: the PaymentMethod Stripe.js made of the typed card, posted as the page posts it. */
    addCard: async (paymentMethod: string) => (await act('addCardAction', { paymentMethod })).value,
    /** Step 2, after the challenge. */
    finish: async (setupIntent: string, last4 = '3184') => (await act('finishAddCardAction', { setupIntent, last4 })).value,
  };
}

/** What Stripe.js makes of a typed test card: a new PaymentMethod attached to no one. */
const typedCard = (testCard = 'pm_card_authenticationRequired') => String(stripe.emulator.store.paymentMethod(testCard).id);

/** The customer's answer on the challenge Stripe.js shows (the emulator's 3-D Secure page). */
async function passChallenge(setupIntentId: string, result: 'complete' | 'fail') {
  const intent = stripe.emulator.store.setupIntents.get(setupIntentId)!;
  const page = (intent.next_action as { use_stripe_sdk: { stripe_js: string } }).use_stripe_sdk.stripe_js;
  const answer = await fetch(page, { method: 'POST', body: new URLSearchParams({ secret: new URL(page).searchParams.get('secret')!, result }) });
  expect(answer.status).toBe(200);
}

const savedCards = async (customerId: string) => (await stripe.api.get(`/api/Customer/${customerId}/PaymentMethod`)).body.data as Obj[];

describe('saving a card that asks for 3-D Secure, the customer present (Stripe mode)', () => {
  it('answers the SetupIntent’s client secret, then saves the card once Stripe says it was authenticated; finishing twice saves one card', async () => {
    const ada = await portalCustomer('Ada');
    const method = typedCard();
    const first = await ada.addCard(method);
    const authenticate = first.result!.authenticate!;
    expect(first.error).toBeUndefined();
    const intent = stripe.emulator.store.setupIntents.get(authenticate.setupIntent)!;
    const stripeCustomer = stripe.emulator.store.customers.get(String(intent.customer))!;
    expect(intent).toMatchObject({ status: 'requires_action', payment_method: method, usage: 'off_session', next_action: { type: 'use_stripe_sdk' } });
    expect(stripeCustomer.metadata).toMatchObject({ paybase_customer: ada.customerId });
    expect(authenticate).toEqual({ clientSecret: intent.client_secret, setupIntent: intent.id, last4: '3184' });
    expect(await savedCards(ada.customerId)).toEqual([]);

    await passChallenge(intent.id, 'complete');
    const [finished, again] = await Promise.all([ada.finish(intent.id), ada.finish(intent.id)]);
    expect(finished).toEqual({ notice: 'Card ending in 3184 added and set as default.' });
    expect(again).toEqual({ notice: 'Card ending in 3184 added and set as default.' });
    const cards = await savedCards(ada.customerId);
    expect(cards).toEqual([expect.objectContaining({ last4: '3184', brand: 'visa', isDefault: true, id: (intent.metadata as Obj).paybase_key })]);
    const [row] = await db.select().from(paymentMethods).where(eq(paymentMethods.customerId, ada.customerId));
    expect(row!.processorToken).toBe(method);
    expect(stripe.emulator.store.paymentMethods.get(method)!.customer).toBe(stripeCustomer.id);
    // The client secret went to the customer's browser only: the server never logged it.
    expect(stripe.server.output()).not.toContain(authenticate.clientSecret);
    expect(await ada.finish(intent.id)).toEqual({ notice: 'Card ending in 3184 added and set as default.' });
    expect(await savedCards(ada.customerId)).toHaveLength(1);
  });

  it('refuses the SetupIntent of another customer, authenticated or not, and saves nothing', async () => {
    const grace = await portalCustomer('Grace');
    const mallory = await portalCustomer('Mallory');
    const graces = (await grace.addCard(typedCard())).result!.authenticate!;
    await passChallenge(graces.setupIntent, 'complete');

    const forged = await mallory.finish(graces.setupIntent);
    expect(forged.error).toBe(`No card verification with id '${graces.setupIntent}'.`);
    expect(forged.notice).toBeUndefined();
    expect(await mallory.finish('seti_doesnotexist')).toMatchObject({ error: "No card verification with id 'seti_doesnotexist'." });
    expect(await savedCards(mallory.customerId)).toEqual([]);
    // Grace's own card is still hers to finish.
    expect(await grace.finish(graces.setupIntent)).toEqual({ notice: 'Card ending in 3184 added and set as default.' });
    expect(await savedCards(grace.customerId)).toHaveLength(1);
    expect(await savedCards(mallory.customerId)).toEqual([]);
  });

  it('saves nothing after a failed or abandoned challenge, and says why', async () => {
    const lin = await portalCustomer('Lin');
    const failed = (await lin.addCard(typedCard())).result!.authenticate!;
    await passChallenge(failed.setupIntent, 'fail');
    expect(await lin.finish(failed.setupIntent)).toEqual({
      error: "Card ending in 3184 not saved: Your card's authentication was not completed. Try again, or use another card. Your default card is unchanged.",
    });
    const abandoned = (await lin.addCard(typedCard())).result!.authenticate!;
    expect(await lin.finish(abandoned.setupIntent)).toEqual({
      error: "Card ending in 3184 not saved: Your card's authentication was not completed. Try again, or use another card. Your default card is unchanged.",
    });
    expect(await savedCards(lin.customerId)).toEqual([]);
    // A card that needs no authentication is saved in one step, as before.
    expect(await lin.addCard(typedCard('pm_card_visa'))).toEqual({ notice: 'Card ending in 4242 added and set as default.' });
  });

  it('is declined authentication_required where the seller’s backend saves the card (no customer to authenticate)', async () => {
    const customer = await stripe.api.post('/api/Customer', { email: `backend-${crypto.randomBytes(4).toString('hex')}@example.com` });
    const saved = await stripe.api.post(`/api/Customer/${customer.body.id}/PaymentMethod`, { tokenRef: typedCard() });
    expect(saved.status, saved.text).toBe(402);
    expect(saved.body).toMatchObject({ code: 'PAYMENT_DECLINED', declineCode: 'authentication_required' });
    const product = await stripe.api.post('/api/Product', { name: 'Backend club' });
    const price = await stripe.api.post('/api/Price', {
      productId: product.body.id,
      type: 'Recurring',
      amount: 500,
      currency: 'USD',
      interval: 'month',
      trialDays: 7,
    });
    const checkout = await stripe.api.post('/api/Checkout', { priceId: price.body.id, customerId: customer.body.id, tokenRef: typedCard() });
    expect(checkout.status, checkout.text).toBe(402);
    expect(checkout.body).toMatchObject({ code: 'PAYMENT_DECLINED', declineCode: 'authentication_required' });
    expect(await savedCards(customer.body.id)).toEqual([]);
  });

  it('a trial’s hosted checkout has the customer authenticate the card it keeps, then starts the subscription with it', async () => {
    const product = await stripe.api.post('/api/Product', { name: 'Club' });
    const price = await stripe.api.post('/api/Price', {
      productId: product.body.id,
      type: 'Recurring',
      amount: 900,
      currency: 'USD',
      interval: 'month',
      trialDays: 14,
    });
    const link = await stripe.api.post('/api/PaymentLink', { priceId: price.body.id });
    expect(link.status, link.text).toBe(201);
    const token = link.body.token as string;
    const email = `trial-${crypto.randomBytes(4).toString('hex')}@example.com`;
    const method = typedCard();
    const attemptKey = crypto.randomUUID();
    const pay = (fields: Record<string, string>) =>
      callServerAction<Obj>({
        baseUrl: stripe.server.baseUrl,
        page: `/pay/${token}`,
        file: 'app/pay/[token]/actions.ts',
        name: 'payAction',
        args: [token, attemptKey, 'en', new FormFields({ email, name: 'Trial', paymentMethod: method, promotionCode: '', ...fields })],
      });

    const first = (await pay({})).value;
    expect(first).toMatchObject({ kind: 'authenticate_card', setupIntent: expect.stringMatching(/^seti_/) });
    const intent = stripe.emulator.store.setupIntents.get(String(first.setupIntent))!;
    expect(first.clientSecret).toBe(intent.client_secret);
    // Nothing is recorded before the card is authenticated.
    expect((await stripe.api.get(`/api/Customer?email=${encodeURIComponent(email)}`)).body.data).toEqual([]);
    await passChallenge(intent.id, 'complete');

    const done = (await pay({ cardVerification: intent.id })).value;
    expect(done).toMatchObject({ kind: expect.stringMatching(/^(paid|processing)$/), checkoutId: expect.stringMatching(/^cs_/) });
    const checkout = await stripe.api.get(`/api/Checkout/${done.checkoutId}`);
    const subscription = await stripe.api.get(`/api/Subscription/${checkout.body.subscriptionId}`);
    expect(subscription.body).toMatchObject({ status: 'trialing' });
    const [card] = await savedCards(checkout.body.customerId);
    expect(card).toMatchObject({ last4: '3184', isDefault: true });
    expect(stripe.emulator.store.paymentMethods.get(method)!.customer).toBe(intent.customer);
    // The same attempt again answers the first, and another attempt cannot finish this one's SetupIntent.
    expect((await pay({ cardVerification: intent.id })).value).toEqual(done);
    const other = await callServerAction<Obj>({
      baseUrl: stripe.server.baseUrl,
      page: `/pay/${token}`,
      file: 'app/pay/[token]/actions.ts',
      name: 'payAction',
      args: [token, crypto.randomUUID(), 'en', new FormFields({ email, name: 'Trial', paymentMethod: method, promotionCode: '', cardVerification: intent.id })],
    });
    expect(other.value).toMatchObject({ kind: 'unavailable' });
  });
});
