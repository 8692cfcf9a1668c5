import type { Operation } from '../http/operation';
import * as catalog from '../catalog/api';
import * as customers from '../customers/api';
import * as paymentLinks from '../payment-links/api';
import * as checkout from '../checkout/api';
import * as payments from '../payments/api';
import * as promotions from '../promotions/api';

/** Every developer-API operation, in the order the reference lists them. */
export const ALL_OPERATIONS: Operation[] = [
  ...Object.values(catalog),
  ...Object.values(customers),
  ...Object.values(paymentLinks),
  ...Object.values(checkout),
  ...Object.values(payments),
  ...Object.values(promotions),
];
