import type http from 'node:http';
import type { StripeObject } from './fixtures';
import type { StripeStore } from './store';
import { StripeError } from './validation';

/**
 * What the emulator serves besides Stripe's API (test code): the stand-in for Stripe's 3-D
 * Secure test page, and test-only controls with no Stripe API behind them.
 */

/**
 * The 3-D Secure page of a PaymentIntent or SetupIntent (`/emulator/authenticate/{id}?secret=…`):
 * "Complete" or "Fail" authentication. Reached by redirect (`redirect_to_url`) it sends the
 * customer back to the intent's `return_url` with Stripe's query parameters; opened by Stripe.js
 * in its challenge frame (`use_stripe_sdk`, with `origin` the page that opened it) it tells that
 * page it is done, as Stripe's frames tell Stripe.js.
 */
export function authenticationPage(store: StripeStore, req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: string) {
  const id = decodeURIComponent(url.pathname.split('/')[3] ?? '');
  const form = new URLSearchParams(body);
  const secret = url.searchParams.get('secret') ?? form.get('secret') ?? '';
  const setup = id.startsWith('seti_');
  const intent = setup ? store.setupIntents.get(id) : store.paymentIntents.get(id);
  if (!intent || store.authenticationSecrets.get(id) !== secret) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Unknown authentication.');
    return;
  }
  const returnUrl = (intent.next_action as { redirect_to_url?: { return_url?: string } } | null)?.redirect_to_url?.return_url;
  if (req.method === 'POST') {
    const result = form.get('result') === 'complete' ? 'complete' : 'fail';
    const settled = setup ? store.finishSetupAuthentication(id, secret, result)! : store.finishAuthentication(id, secret, result)!;
    const status = settled.status === 'succeeded' ? 'succeeded' : 'failed';
    if (!returnUrl) {
      const done = `<p>Authentication ${status === 'succeeded' ? 'completed' : 'failed'}.</p>`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(done + tellOpener(url.searchParams.get('origin'), id)));
      return;
    }
    const back = new URL(returnUrl);
    const kind = setup ? 'setup_intent' : 'payment_intent';
    back.searchParams.set(kind, id);
    back.searchParams.set(`${kind}_client_secret`, String(intent.client_secret));
    back.searchParams.set('redirect_status', status);
    res.writeHead(303, { location: back.toString() }).end();
    return;
  }
  const what = setup ? describeSetup(store, intent) : `${intent.amount} ${String(intent.currency).toUpperCase()} (minor units)`;
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      page(
        `<h1>3D Secure test ${setup ? 'card setup' : 'payment'}</h1><p>Stripe emulator: authenticate ${escapeHtml(what)}. Status: ${escapeHtml(String(intent.status))}.</p>` +
          `<form method="post"><input type="hidden" name="secret" value="${escapeHtml(secret)}"><button name="result" value="complete">Complete authentication</button> ` +
          `<button name="result" value="fail">Fail authentication</button></form>`,
      ),
    );
}

function describeSetup(store: StripeStore, intent: StripeObject): string {
  const card = store.paymentMethods.get(String(intent.payment_method))?.card as { brand?: string; last4?: string } | undefined;
  return `saving the card ${card?.brand ?? ''} ending in ${card?.last4 ?? '?'} for later payments`;
}

/** The script that tells the page which opened the challenge frame (Stripe.js) that it ended; nothing when that page's origin is unknown. */
function tellOpener(origin: string | null, intentId: string): string {
  if (!origin || !URL.canParse(origin) || new URL(origin).origin !== origin) return '';
  const message = JSON.stringify({ type: 'stripe-emulator:authentication-finished', intent: intentId }).replace(/</g, '\\u003c');
  return `<script>window.parent.postMessage(${message}, ${JSON.stringify(origin).replace(/</g, '\\u003c')});</script>`;
}

/**
 * Test-only controls with no Stripe API behind them (Stripe decides these weeks later): `POST
 * /emulator/test-helpers/disputes/{id}/close` with `outcome=won|lost` closes a dispute as the
 * card network would, sending its events.
 */
export function testHelper(store: StripeStore, req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: string) {
  const close = /^\/emulator\/test-helpers\/disputes\/([^/]+)\/close$/.exec(url.pathname);
  const outcome = new URLSearchParams(body).get('outcome');
  const send = (status: number, payload: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload, null, 2));
  if (req.method !== 'POST' || !close || (outcome !== 'won' && outcome !== 'lost')) {
    return send(404, {
      error: { type: 'invalid_request_error', message: 'Test helper: POST /emulator/test-helpers/disputes/{id}/close with outcome=won|lost.' },
    });
  }
  try {
    send(200, publicView(store.closeDispute(decodeURIComponent(close[1]!), outcome)));
  } catch (error) {
    if (!(error instanceof StripeError)) throw error;
    send(error.status, error.body);
  }
}

/** What the emulator keeps beside an object (a test card's behaviour) never leaves it. */
export function publicView(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === 'behaviour' ? undefined : v)));
}

function page(content: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stripe emulator</title></head><body>${content}</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
