import type { Paybase } from '../../packages/sdk/src/index';

// docs/backend-example.md shows the region below verbatim, and tests/integration/backend-example.test.ts
// runs it against the real server, so the walkthrough cannot drift from the service.

// #region example
/** From a new customer to a paid subscription and its invoice PDF, through the API only. */
export async function subscribeNewCustomer(paybase: Paybase, input: { email: string; name: string; tokenRef: string }) {
  // 1. The plan you sell (usually created once, at setup): a product and its monthly price.
  const product = await paybase.post('/api/Product', { body: { name: 'Pro plan' } });
  const price = await paybase.post('/api/Price', {
    body: { productId: product.id, type: 'Recurring', amount: 1999, currency: 'USD', interval: 'month' },
  });

  // 2. A new customer, keyed by your own user id.
  const customer = await paybase.post('/api/Customer', {
    body: { email: input.email, name: input.name, externalId: `user_${input.email}` },
  });

  // 3. Save a card: the tokenRef comes from the processor's card form (sandbox: tok_visa).
  //    It is verified with a zero-amount authorization; a declining card throws
  //    PAYMENT_DECLINED (402) and nothing is saved.
  const card = await paybase.post('/api/Customer/{customerId}/PaymentMethod', {
    params: { path: { customerId: customer.id } },
    body: { tokenRef: input.tokenRef },
  });

  // 4. Subscribe: the first period is charged at once with the saved card.
  const subscription = await paybase.post('/api/Subscription', {
    body: { customerId: customer.id, priceId: price.id, paymentMethodId: card.id },
  });

  // 5. The period's billing record is its invoice: lines, totals, payment attempts, links.
  const invoices = await paybase.get('/api/BillingRecord', {
    params: { query: { subscriptionId: subscription.id } },
  });
  const invoice = invoices.data[0]!;

  // 6. The PDF sits at a secret address (no API key needed): store it or send it on.
  const response = await fetch(invoice.invoicePdfUrl);
  const pdf = new Uint8Array(await response.arrayBuffer());

  return { customer, card, subscription, invoice, pdf };
}
// #endregion example
