import type { StoreContext, StripeStore } from './store';

/** One API route: the id in its path (`:id`), its validated parameters and who asks, to the store's answer. */
export type Handler = (req: { id: string | undefined; params: Record<string, unknown>; ctx: StoreContext }) => unknown;

/**
 * The emulator's API routes for cards kept with a customer (test code): customers, PaymentMethods
 * and SetupIntents (store-cards.ts). Stripe.js retrieves a SetupIntent with the publishable key
 * and the intent's client secret, and sees only what a browser may.
 */
export function cardRoutes(s: StripeStore): Record<string, Handler> {
  return {
    'POST /v1/customers': ({ params, ctx }) => s.createCustomer(params, ctx),
    'GET /v1/customers/:id': ({ id }) => s.customer(id!),
    'POST /v1/payment_methods': ({ params, ctx }) => s.createPaymentMethod(params, ctx),
    'GET /v1/payment_methods/:id': ({ id }) => s.paymentMethod(id!, 'id', false),
    'POST /v1/payment_methods/:id/attach': ({ id, params, ctx }) => s.attachPaymentMethod(id!, params, ctx),
    'POST /v1/payment_methods/:id/detach': ({ id, ctx }) => s.detachPaymentMethod(id!, ctx),
    'POST /v1/setup_intents': ({ params, ctx }) => s.createSetupIntent(params, ctx),
    'GET /v1/setup_intents/:id': ({ id, params, ctx }) => (ctx.publishable ? s.setupIntentForClient(id!, params.client_secret) : s.setupIntent(id!)),
    'POST /v1/setup_intents/:id/confirm': ({ id, params, ctx }) => s.confirmSetupIntent(id!, params, ctx),
  };
}
