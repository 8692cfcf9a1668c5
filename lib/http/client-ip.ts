import type { IncomingMessage } from 'node:http';
import type { ClientInfo } from '../auth/sign-in';

/**
 * The launcher writes the caller's address into this header on every request, replacing any
 * value the client sent, so route handlers (which cannot see the socket) can rate limit by it.
 */
export const CLIENT_IP_HEADER = 'x-paybase-client-ip';

/**
 * The socket's address, or with `TRUST_PROXY=true` (behind a reverse proxy that sets it) the
 * first address of `X-Forwarded-For`.
 */
export function resolveClientIp(req: IncomingMessage): string {
  if (process.env.TRUST_PROXY === 'true') {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

export function clientInfo(headers: Headers): ClientInfo {
  return { ip: headers.get(CLIENT_IP_HEADER) ?? 'unknown' };
}
