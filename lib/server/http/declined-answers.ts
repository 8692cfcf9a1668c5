import { ApiError } from '../../errors';
import { respond } from '../../http/respond';
import { toProblem } from '../../http/problem';
import type { CheckoutResponseBody } from '../../checkout/checkout-response';

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

/** A declined subscription charge answers 402 PAYMENT_DECLINED with the recorded failed payment (returned, so it commits). */
export function declinedAnswer(result: { payment: { id: string }; message: string; declineCode: string }, requestId: string) {
  const error = new ApiError('PAYMENT_DECLINED', result.message, { extra: { declineCode: result.declineCode, payment: result.payment } });
  return respond(402, toProblem(error, requestId));
}
