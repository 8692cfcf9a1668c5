import type { IncomingMessage } from 'node:http';
import { config } from '../config';
import { newRequestId } from './request';
import { storableText } from '../stored-text';

/** Where a request comes from, for per-address rate limits. */
export interface ClientInfo {
  ip: string;
}

/**
 * The launcher writes the caller's address into this header on every request, replacing any
 * value the client sent, so route handlers (which cannot see the socket) can rate limit by it.
 */
export const CLIENT_IP_HEADER = 'x-paybase-client-ip';

/**
 * The request id the launcher gives every request (and answers as `X-Request-Id`), replacing
 * any value the client sent, so an API call and a console action are named the same way in the
 * logs and the audit log.
 */
export const REQUEST_ID_HEADER = 'x-paybase-request-id';

/** Longer than any textual IPv6 address with a zone: a longer forwarded "address" is cut (it is stored in the audit log). */
const ADDRESS_LIMIT = 64;

/**
 * The socket's address, or with `TRUST_PROXY=true` (behind a reverse proxy that sets it) the
 * first address of `X-Forwarded-For`, which the client may have written: at most 64 characters.
 */
export function resolveClientIp(req: IncomingMessage): string {
  if (config.http.trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return storableText(first, ADDRESS_LIMIT);
  }
  return req.socket.remoteAddress ?? 'unknown';
}

export function clientInfo(headers: Headers): ClientInfo {
  return { ip: headers.get(CLIENT_IP_HEADER) ?? 'unknown' };
}

/** The launcher's request id, or a new one where no launcher ran (a route called in-process). */
export function requestIdOf(headers: Headers): string {
  return headers.get(REQUEST_ID_HEADER) ?? newRequestId();
}
