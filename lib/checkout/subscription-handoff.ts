import type { Db } from '../db/client';
import { ApiError } from '../http/errors';

export interface RecurringCheckoutRequest {
  merchantId: string;
  customerId: string;
  priceId: string;
  quantity: number;
  paymentLinkId: string | null;
  /** The saved method to charge, or a one-off processor token. */
  payment: { paymentMethodId: string | null; token: string };
  promotion: { promotionCodeId: string; couponId: string } | null;
}

/**
 * The hand-off point to subscriptions: a checkout of a Recurring price must end as a
 * subscription (with its own first charge, trial and coupon duration), not as a one-time
 * payment. When it is called, the customer exists, the promotion code is redeemed and the
 * payment link's completion slot is taken, all in `tx`; the implementation creates the
 * subscription, charges its first period (or starts its trial), writes the checkout and calls
 * `markCheckoutPaid`/`failCheckout` from ./checkouts. The subscriptions module implements this;
 * until then such checkouts answer 409 and the transaction rolls back (nothing is charged or written).
 */
export async function startSubscriptionFromCheckout(_tx: Db, request: RecurringCheckoutRequest): Promise<never> {
  throw new ApiError(
    'INVALID_STATE',
    `Price ${request.priceId} is Recurring: recurring checkout starts a subscription, which this installation does not support yet. Use a OneTime price.`,
    { extra: { reason: 'recurring_checkout_not_supported' } },
  );
}
