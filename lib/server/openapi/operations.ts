import type { Operation } from '../../http/operation';
import * as billing from '../../billing/api';
import * as catalog from '../../catalog/api';
import * as customers from '../../customers/api';
import * as entitlements from '../../entitlements/api';
import * as paymentLinks from '../../payment-links/api';
import * as designs from '../../designs/api';
import * as checkout from '../../checkout/api';
import * as payments from '../../payments/api';
import * as promotions from '../../promotions/api';
import * as webhooks from '../../webhooks/api';
import * as subscriptions from '../../subscriptions/api';
import * as usage from '../../usage/api';
import * as tax from '../../tax/api';

/** Resource groups in the order the reference presents them. */
export const TAG_ORDER = [
  'Products',
  'Prices',
  'Entitlements',
  'Usage',
  'Customers',
  'Payment links',
  'Checkout designs',
  'Checkout',
  'Payments',
  'Disputes',
  'Billing records',
  'Tax rates',
  'Promotion codes',
  'Subscriptions',
  'Test clocks',
  'Webhooks',
];

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'DELETE'];

function rank(operation: Operation): [number, string, number] {
  const tag = TAG_ORDER.indexOf(operation.tag);
  return [tag === -1 ? TAG_ORDER.length : tag, operation.path, METHOD_ORDER.indexOf(operation.method)];
}

/** Every developer-API operation, grouped by resource, then by path and method. */
export const ALL_OPERATIONS: Operation[] = [
  ...Object.values(billing),
  ...Object.values(tax),
  ...Object.values(catalog),
  ...Object.values(customers),
  ...Object.values(entitlements),
  ...Object.values(paymentLinks),
  ...Object.values(designs),
  ...Object.values(checkout),
  ...Object.values(payments),
  ...Object.values(promotions),
  ...Object.values(subscriptions),
  ...Object.values(usage),
  ...Object.values(webhooks),
].sort((a, b) => {
  const [ta, pa, ma] = rank(a);
  const [tb, pb, mb] = rank(b);
  return ta - tb || pa.localeCompare(pb) || ma - mb;
});
