import { ApiError, toProblem } from '../errors';
import { respond } from '../http/respond';

/** A declined charge answers 402 PAYMENT_DECLINED with the recorded failed payment (returned, so it commits). */
export function declinedAnswer(result: { payment: { id: string }; message: string; declineCode: string }, requestId: string) {
  const error = new ApiError('PAYMENT_DECLINED', result.message, { extra: { declineCode: result.declineCode, payment: result.payment } });
  return respond(402, toProblem(error, requestId));
}
