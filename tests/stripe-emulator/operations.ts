/**
 * The Stripe API operations the emulator serves (test code): method, path pattern and the name
 * of the request-parameter type the installed `stripe` package declares for it, in the file
 * named. `generate-schemas.ts` turns each type into a JSON Schema (schemas/<type>.json); the
 * server checks every request against it.
 */
export interface StripeOperation {
  method: 'GET' | 'POST' | 'DELETE';
  /** `:id` is one path segment. */
  path: string;
  /** The `stripe` package's declaration file under esm/resources, without `.d.ts`. */
  resourceFile: string;
  paramsType: string;
}

export const OPERATIONS = [
  { method: 'GET', path: '/v1/account', resourceFile: 'Accounts', paramsType: 'AccountRetrieveCurrentParams' },
  { method: 'GET', path: '/v1/balance', resourceFile: 'Balance', paramsType: 'BalanceRetrieveParams' },
  { method: 'POST', path: '/v1/customers', resourceFile: 'Customers', paramsType: 'CustomerCreateParams' },
  { method: 'GET', path: '/v1/customers/:id', resourceFile: 'Customers', paramsType: 'CustomerRetrieveParams' },
  { method: 'POST', path: '/v1/payment_methods', resourceFile: 'PaymentMethods', paramsType: 'PaymentMethodCreateParams' },
  { method: 'GET', path: '/v1/payment_methods/:id', resourceFile: 'PaymentMethods', paramsType: 'PaymentMethodRetrieveParams' },
  { method: 'POST', path: '/v1/payment_methods/:id/attach', resourceFile: 'PaymentMethods', paramsType: 'PaymentMethodAttachParams' },
  { method: 'POST', path: '/v1/payment_methods/:id/detach', resourceFile: 'PaymentMethods', paramsType: 'PaymentMethodDetachParams' },
  { method: 'POST', path: '/v1/payment_intents', resourceFile: 'PaymentIntents', paramsType: 'PaymentIntentCreateParams' },
  { method: 'GET', path: '/v1/payment_intents', resourceFile: 'PaymentIntents', paramsType: 'PaymentIntentListParams' },
  { method: 'GET', path: '/v1/payment_intents/search', resourceFile: 'PaymentIntents', paramsType: 'PaymentIntentSearchParams' },
  { method: 'GET', path: '/v1/payment_intents/:id', resourceFile: 'PaymentIntents', paramsType: 'PaymentIntentRetrieveParams' },
  { method: 'POST', path: '/v1/payment_intents/:id/confirm', resourceFile: 'PaymentIntents', paramsType: 'PaymentIntentConfirmParams' },
  { method: 'POST', path: '/v1/payment_intents/:id/cancel', resourceFile: 'PaymentIntents', paramsType: 'PaymentIntentCancelParams' },
  { method: 'POST', path: '/v1/setup_intents', resourceFile: 'SetupIntents', paramsType: 'SetupIntentCreateParams' },
  { method: 'GET', path: '/v1/setup_intents/:id', resourceFile: 'SetupIntents', paramsType: 'SetupIntentRetrieveParams' },
  { method: 'POST', path: '/v1/setup_intents/:id/confirm', resourceFile: 'SetupIntents', paramsType: 'SetupIntentConfirmParams' },
  { method: 'POST', path: '/v1/refunds', resourceFile: 'Refunds', paramsType: 'RefundCreateParams' },
  { method: 'GET', path: '/v1/refunds/:id', resourceFile: 'Refunds', paramsType: 'RefundRetrieveParams' },
  { method: 'GET', path: '/v1/disputes', resourceFile: 'Disputes', paramsType: 'DisputeListParams' },
  { method: 'GET', path: '/v1/disputes/:id', resourceFile: 'Disputes', paramsType: 'DisputeRetrieveParams' },
  { method: 'POST', path: '/v1/disputes/:id', resourceFile: 'Disputes', paramsType: 'DisputeUpdateParams' },
  { method: 'POST', path: '/v1/webhook_endpoints', resourceFile: 'WebhookEndpoints', paramsType: 'WebhookEndpointCreateParams' },
  { method: 'GET', path: '/v1/webhook_endpoints', resourceFile: 'WebhookEndpoints', paramsType: 'WebhookEndpointListParams' },
  { method: 'DELETE', path: '/v1/webhook_endpoints/:id', resourceFile: 'WebhookEndpoints', paramsType: 'WebhookEndpointDeleteParams' },
  { method: 'GET', path: '/v1/events', resourceFile: 'Events', paramsType: 'EventListParams' },
  { method: 'GET', path: '/v1/events/:id', resourceFile: 'Events', paramsType: 'EventRetrieveParams' },
] as const satisfies readonly StripeOperation[];

export type OperationParamsType = (typeof OPERATIONS)[number]['paramsType'];
