import { fromFixture, type StripeObject } from './fixtures';
import { cardRoutes, type Handler } from './routes-cards';
import type { StripeStore } from './store';
import { invalidRequest, StripeError } from './validation';
import type { WebhookSender } from './webhooks';

/**
 * The emulator's API routes (test code), each `METHOD /path` of operations.ts to the store's
 * answer: the account and its balance, cards (routes-cards.ts), then payments, refunds and
 * disputes, webhook endpoints and events.
 */
export type { Handler };

export function apiRoutes(s: StripeStore, webhooks: WebhookSender): Record<string, Handler> {
  return {
    'GET /v1/account': ({ ctx }) => fromFixture('account', { id: ctx.account, settings: accountSettings(ctx.account) }),
    'GET /v1/balance': ({ ctx }) => ({
      object: 'balance',
      available: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
      pending: [],
      livemode: ctx.livemode,
    }),
    ...cardRoutes(s),
    'POST /v1/payment_intents': ({ params, ctx }) => s.createPaymentIntent(params, ctx),
    'GET /v1/payment_intents': ({ params }) =>
      list(
        '/v1/payment_intents',
        [...s.paymentIntents.values()].filter((pi) => !params.customer || pi.customer === params.customer),
        params,
      ),
    'GET /v1/payment_intents/search': ({ params }) => search('/v1/payment_intents/search', [...s.paymentIntents.values()], params),
    'GET /v1/payment_intents/:id': ({ id }) => s.paymentIntent(id!),
    'POST /v1/payment_intents/:id/confirm': ({ id, params, ctx }) => s.confirmPaymentIntent(id!, params, ctx),
    'POST /v1/payment_intents/:id/cancel': ({ id, params, ctx }) => s.cancelPaymentIntent(id!, params, ctx),
    'POST /v1/refunds': ({ params, ctx }) => s.createRefund(params, ctx),
    'GET /v1/refunds/:id': ({ id }) => found(s.refunds.get(id!), 'refund', id!),
    'GET /v1/disputes': ({ params }) =>
      list(
        '/v1/disputes',
        [...s.disputes.values()].filter((d) => !params.payment_intent || d.payment_intent === params.payment_intent),
        params,
      ),
    'GET /v1/disputes/:id': ({ id }) => s.dispute(id!),
    'POST /v1/disputes/:id': ({ id, params, ctx }) => s.updateDispute(id!, params, ctx),
    'POST /v1/webhook_endpoints': ({ params, ctx }) => webhooks.createEndpoint(params, ctx.livemode, ctx.account),
    'GET /v1/webhook_endpoints': ({ params }) => list('/v1/webhook_endpoints', webhooks.listEndpoints(), params),
    'DELETE /v1/webhook_endpoints/:id': ({ id }) => webhooks.deleteEndpoint(id!),
    'GET /v1/events': ({ params }) =>
      list(
        '/v1/events',
        webhooks.events.filter((e) => !params.type || e.type === params.type),
        params,
      ),
    'GET /v1/events/:id': ({ id }) => webhooks.event(id!),
  };
}

function accountSettings(account: string) {
  return { dashboard: { display_name: `Emulated ${account.slice(-6)}`, timezone: 'Etc/UTC' } };
}

function found(object: StripeObject | undefined, resource: string, id: string): StripeObject {
  if (!object)
    throw new StripeError(404, { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such ${resource}: '${id}'` } });
  return object;
}

function list(url: string, all: StripeObject[], params: Record<string, unknown>) {
  const limit = Math.min(Number(params.limit ?? 10), 100);
  const sorted = [...all].sort((a, b) => Number(b.created) - Number(a.created));
  const start = params.starting_after ? sorted.findIndex((o) => o.id === params.starting_after) + 1 : 0;
  return { object: 'list', url, has_more: sorted.length > start + limit, data: sorted.slice(start, start + limit) };
}

/** Stripe's search query language, the part Paybase uses: `metadata['key']:'value'` and `status:'value'` clauses joined by AND. */
function search(url: string, all: StripeObject[], params: Record<string, unknown>) {
  const clauses = String(params.query)
    .split(/\s+AND\s+/i)
    .map((clause) => {
      const match = /^(?:metadata\[['"]([^'"]+)['"]\]|(status|currency|customer)):['"]([^'"]*)['"]$/.exec(clause.trim());
      if (!match) throw invalidRequest(`Invalid search query: ${clause}`, 'query', 'parameter_invalid');
      return { metadataKey: match[1], field: match[2], value: match[3]! };
    });
  const data = all.filter((o) =>
    clauses.every((c) => (c.metadataKey ? (o.metadata as Record<string, string>)[c.metadataKey] === c.value : String(o[c.field!]) === c.value)),
  );
  return { object: 'search_result', url, has_more: false, next_page: null, data: data.slice(0, Number(params.limit ?? 10)) };
}
