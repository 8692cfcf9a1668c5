import crypto from 'node:crypto';
import { Paybase } from './client.js';
import { PaybaseError } from './errors.js';
import type { components } from './schema.js';
import { webhookSignatureHeader, standardWebhookSignature } from './webhooks.js';

/**
 * The local-development listener behind `npx paybase listen` (docs/webhooks.md, "Local
 * development"): it reads the seller's events through the developer API (`GET /api/WebhookEvent`,
 * so nothing has to reach the developer's machine from outside), signs each one with a secret of
 * its own exactly as a real delivery is signed, and POSTs it to a local URL with a delivery's
 * headers.
 */

type EventItem = components['schemas']['WebhookEventResponse'];

/** Events become visible when their transaction commits, a little after their `createdAt`: each poll looks back this far. */
const LATE_COMMIT_WINDOW_MS = 30_000;

export interface ListenOptions {
  /** Where the service runs (`PAYBASE_URL`). */
  baseUrl: string;
  /** A secret API key with `webhooks:read` (`PAYBASE_API_KEY`). */
  apiKey: string;
  /** The local receiver, e.g. `http://localhost:4000/webhooks`. */
  forwardTo: string;
  /** Signing secret; a new `whsec_…` when omitted (read it back from `listener.secret`). */
  secret?: string;
  /** Only these event types are forwarded (all when omitted or empty). */
  events?: readonly string[];
  /** Pause between polls (default 1000 ms). */
  pollIntervalMs?: number;
  /** Events per page read from the API (default 100, the most the API gives). */
  pageSize?: number;
  /** Timeout of one forward, like a real delivery's (default 10 000 ms). */
  forwardTimeoutMs?: number;
  /** Called after each forward, answered or not. */
  onForward?: (result: ForwardedEvent) => void;
  /** Called when a poll of the API fails; the listener keeps polling. */
  onPollError?: (error: unknown) => void;
  /** Defaults to the global fetch (used for the API and for the forwards). */
  fetch?: typeof fetch;
}

export interface ForwardedEvent {
  eventId: string;
  type: string;
  createdAt: string;
  /** The local answer's status; absent when the request failed (`error` says why). */
  status?: number;
  error?: string;
}

export interface Listener {
  readonly secret: string;
  /** Stops polling, letting a forward in progress finish. */
  stop(): Promise<void>;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** When the service recorded an event: the time in its ULID id (`evt_<ulid>`), else its createdAt. */
function recordedAt(event: EventItem): number {
  const timePart = event.id.slice(event.id.lastIndexOf('_') + 1, event.id.lastIndexOf('_') + 11).toUpperCase();
  if (timePart.length !== 10) return Date.parse(event.createdAt);
  let ms = 0;
  for (const char of timePart) {
    const digit = CROCKFORD.indexOf(char);
    if (digit < 0) return Date.parse(event.createdAt);
    ms = ms * 32 + digit;
  }
  return ms;
}

/** A signing secret shaped like an endpoint's: `whsec_` and 24 random bytes in base64. */
export function newListenerSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

/**
 * Starts forwarding. Resolves once the starting point is taken: events recorded before it are
 * never forwarded; every later event is forwarded once, in the order of the event history
 * (`createdAt`, then id), following every page of each poll.
 */
export async function listen(options: ListenOptions): Promise<Listener> {
  const paybase = new Paybase({ baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: options.fetch });
  const send = options.fetch ?? globalThis.fetch;
  const secret = options.secret ?? newListenerSecret();
  const wanted = options.events && options.events.length > 0 ? new Set(options.events) : undefined;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const forwardTimeoutMs = options.forwardTimeoutMs ?? 10_000;
  const pageSize = options.pageSize ?? 100;

  /** Ids already handled (forwarded or filtered out), with their createdAt; dropped once no poll can return them. */
  const seen = new Map<string, number>();
  /**
   * The server's real time up to which events were handled (ms). It advances with the time in
   * each event's id (a ULID made when the event was recorded), not with `createdAt`: events of a
   * sandbox test clock carry the clock's time, which may be far ahead.
   */
  let watermark: number;
  let stopping = false;

  const fetchPage = (query: { page: number; createdFrom: string }) =>
    paybase.get('/api/WebhookEvent', { params: { query: { ...query, pageSize, orderBy: 'createdAt', orderDirection: 'asc' } } });

  // The starting point is the server's clock: what the history already holds is handled, not sent.
  const probe = await paybase.raw.GET('/api/WebhookEvent', { params: { query: { pageSize: 1 } } });
  if (!probe.response.ok) throw PaybaseError.fromAnswer(probe.response.status, probe.error);
  watermark = Date.parse(probe.response.headers.get('date') ?? '') || Date.now();
  await poll(false);

  async function forward(event: EventItem): Promise<void> {
    // The body of a real delivery: the event's fields in this order (lib/webhooks/deliveries.ts).
    const body = JSON.stringify({
      id: event.id,
      apiVersion: event.apiVersion,
      type: event.type,
      sequence: event.sequence,
      createdAt: event.createdAt,
      data: event.data,
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'Paybase-Webhooks/1.0',
      'X-Service-Signature': webhookSignatureHeader(secret, timestamp, body),
      'X-Service-Event-Id': event.id,
      'X-Service-Delivery-Id': `wda_listen_${crypto.randomBytes(8).toString('hex')}`,
      'X-Service-Event-Type': event.type,
      'Paybase-Version': event.apiVersion,
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardWebhookSignature(secret, event.id, timestamp, body),
    };
    const result: ForwardedEvent = { eventId: event.id, type: event.type, createdAt: event.createdAt };
    try {
      const response = await send(options.forwardTo, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(forwardTimeoutMs) });
      await response.arrayBuffer();
      result.status = response.status;
    } catch (error) {
      result.error = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    }
    options.onForward?.(result);
  }

  /** Reads every page from the window's start; handles each unseen event once, in order. */
  async function poll(forwarding: boolean): Promise<void> {
    const createdFrom = new Date(watermark - LATE_COMMIT_WINDOW_MS).toISOString();
    for (let page = 1; !stopping; page++) {
      const answer = await fetchPage({ page, createdFrom });
      for (const event of answer.data) {
        if (stopping) return;
        if (seen.has(event.id)) continue;
        seen.set(event.id, Date.parse(event.createdAt));
        watermark = Math.max(watermark, recordedAt(event));
        if (forwarding && (!wanted || wanted.has(event.type))) await forward(event);
      }
      if (!answer.hasMore) break;
    }
    for (const [id, createdAt] of seen) if (createdAt < watermark - LATE_COMMIT_WINDOW_MS) seen.delete(id);
  }

  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopping) {
      try {
        await poll(true);
      } catch (error) {
        options.onPollError?.(error);
      }
      if (stopping) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();

  return {
    secret,
    async stop() {
      stopping = true;
      wake?.();
      await loop;
    },
  };
}
