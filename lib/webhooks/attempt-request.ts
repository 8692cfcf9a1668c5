import { liveSigningSecrets } from './endpoints';
import { eventBody } from './deliveries';
import { signatureHeader, standardSignatureHeader } from './signature';
import type { ClaimedDelivery } from './claim';
import type { AttemptResult } from './record';
import { API_VERSION_HEADER, CURRENT_API_VERSION } from '../http/api-versions';

/** The history's error for an attempt not made because the endpoint's signing secret does not decrypt here. */
export const UNDECRYPTABLE_SECRET_ERROR =
  "Not sent: this server cannot decrypt the endpoint's signing secret (its SECRET_KEY is not the one the secret was encrypted with). " +
  'Retried on the schedule, possibly by another server.';

/** The history's error for an attempt that failed before its request was made (logged with the delivery's id). */
export const UNPREPARED_ATTEMPT_ERROR = 'Not sent: the attempt failed before its request was made (an internal error). Retried on the schedule.';

/** An attempt's headers: a fresh timestamp and signature on every attempt; the body never changes. */
export function deliveryHeaders(
  delivery: Pick<ClaimedDelivery, 'id' | 'eventId' | 'eventType'>,
  secrets: string[],
  body: string,
  startedAt: Date,
): Record<string, string> {
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'Paybase-Webhooks/1.0',
    'X-Service-Signature': signatureHeader(secrets, timestamp, body),
    'X-Service-Event-Id': delivery.eventId,
    'X-Service-Delivery-Id': delivery.id,
    'X-Service-Event-Type': delivery.eventType,
    // The version the body is rendered in, as in the body's `apiVersion`.
    [API_VERSION_HEADER]: CURRENT_API_VERSION,
    // The same delivery for Standard Webhooks receivers: the id is the event's, stable across attempts.
    'webhook-id': delivery.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignatureHeader(secrets, delivery.eventId, timestamp, body),
  };
}

export type AttemptRequest = { headers: Record<string, string>; body: string } | { notSent: string };

/**
 * Builds the requests of one claim's attempts: each endpoint's secrets are decrypted once, each
 * event's body is built once. A secret that does not decrypt is reported once per endpoint
 * (`onUndecryptable`) and its attempts are not sent, but answered with why, to be recorded.
 */
export function attemptRequests(onUndecryptable: (endpointId: string, error: unknown) => void) {
  const secrets = new Map<string, string[] | null>();
  const bodies = new Map<string, string>();
  return (delivery: ClaimedDelivery, startedAt: Date): AttemptRequest => {
    let endpointSecrets = secrets.get(delivery.endpointId);
    if (endpointSecrets === undefined) {
      try {
        endpointSecrets = liveSigningSecrets({ ...delivery, id: delivery.endpointId }, startedAt);
      } catch (error) {
        onUndecryptable(delivery.endpointId, error);
        endpointSecrets = null;
      }
      secrets.set(delivery.endpointId, endpointSecrets);
    }
    if (!endpointSecrets) return { notSent: UNDECRYPTABLE_SECRET_ERROR };
    let body = bodies.get(delivery.eventId);
    if (body === undefined) {
      body = eventBody({
        id: delivery.eventId,
        type: delivery.eventType,
        sequence: delivery.eventSequence,
        createdAt: delivery.eventCreatedAt,
        data: delivery.eventData,
      });
      bodies.set(delivery.eventId, body);
    }
    return { headers: deliveryHeaders(delivery, endpointSecrets, body, startedAt), body };
  };
}

/** A failed attempt that sent nothing, as the history records it. */
export function notSentResult(delivery: ClaimedDelivery, startedAt: Date, error: string): AttemptResult {
  return { delivery, headers: {}, startedAt, finishedAt: startedAt, outcome: { succeeded: false, status: null, responseBody: null, error, durationMs: 0 } };
}
