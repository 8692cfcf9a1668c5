import { ApiError, toProblem } from '../errors';
import { respond } from '../http/respond';
import type { CheckoutResponseBody } from './checkout-response';

/**
 * The HTTP answer of a completed checkout: 201 with the checkout (paid, or open while its
 * payment is `unknown` or `requires_action`: one rule for every answer not yet settled), or a 402 PAYMENT_DECLINED problem that still carries the recorded
 * checkout — returned, not thrown, so the failed payment and its event commit.
 */
export function checkoutAnswer(result: { checkout: CheckoutResponseBody; declined: boolean }, requestId: string) {
  if (!result.declined) return respond(201, result.checkout);
  const payment = result.checkout.payment!;
  const error = new ApiError('PAYMENT_DECLINED', payment.failureMessage ?? 'The payment was declined.', {
    extra: { declineCode: payment.failureCode, checkout: result.checkout },
  });
  return respond(402, toProblem(error, requestId));
}
