import net from 'node:net';
import { Agent, buildConnector, errors as undiciErrors } from 'undici';
import { config } from '../config';
import { checkUrlShape, guardedLookup, isAllowedAddress, UnsafeUrlError, type HostResolver } from './url-guard';

export const RESPONSE_BODY_LIMIT = 4096;

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Only for tests of the guard itself; deliveries use the process-wide agent's settings. */
  allowPrivate?: boolean;
  resolver?: HostResolver;
}

export interface SendOutcome {
  succeeded: boolean;
  status: number | null;
  /** First 4 KiB of the response body. */
  responseBody: string | null;
  error: string | null;
  durationMs: number;
}

/**
 * An undici Agent whose every new connection goes through the SSRF guard: an IP literal is
 * checked here, a host name in `guardedLookup`, and the socket connects only to the checked
 * addresses. Connections are pooled per origin and kept alive between attempts; undici follows
 * no redirects unless asked to.
 */
export function createWebhookAgent(options: { allowPrivate: boolean; resolver?: HostResolver; timeoutMs: number }): Agent {
  const connectGuarded = buildConnector({ lookup: guardedLookup(options), timeout: options.timeoutMs });
  return new Agent({
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 4_000,
    connect(connectOptions, callback) {
      const host = connectOptions.hostname.replace(/^\[|\]$/g, '');
      if (net.isIP(host) && !isAllowedAddress(host, options.allowPrivate)) {
        callback(new UnsafeUrlError(`The host '${host}' is a loopback, private, link-local or otherwise non-public address.`), null);
        return;
      }
      connectGuarded(connectOptions, callback);
    },
  });
}

const globalForAgent = globalThis as unknown as { __paybaseWebhookAgent?: Agent };

/** The one agent every delivery of this process goes through (config: private URLs, timeout). */
export function webhookAgent(): Agent {
  globalForAgent.__paybaseWebhookAgent ??= createWebhookAgent({ allowPrivate: config.webhooks.allowPrivateUrls, timeoutMs: config.webhooks.timeoutMs });
  return globalForAgent.__paybaseWebhookAgent;
}

export async function closeWebhookAgent(): Promise<void> {
  const agent = globalForAgent.__paybaseWebhookAgent;
  globalForAgent.__paybaseWebhookAgent = undefined;
  await agent?.close();
}

/**
 * One webhook POST: redirects are not followed (a 3xx is a failure); the whole exchange is
 * bounded by `timeoutMs`; only the first 4 KiB of the answer is read. Never throws.
 */
export async function sendWebhookRequest(request: SendRequest, agent?: Agent): Promise<SendOutcome> {
  const custom = !agent && (request.allowPrivate !== undefined || request.resolver !== undefined);
  const dispatcher =
    agent ??
    (custom
      ? createWebhookAgent({ allowPrivate: request.allowPrivate ?? config.webhooks.allowPrivateUrls, resolver: request.resolver, timeoutMs: request.timeoutMs })
      : webhookAgent());
  try {
    return await post(request, dispatcher);
  } finally {
    if (custom) await dispatcher.close();
  }
}

async function post(request: SendRequest, dispatcher: Agent): Promise<SendOutcome> {
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);
  const failure = (error: string, status: number | null = null): SendOutcome => ({
    succeeded: false,
    status,
    responseBody: null,
    error,
    durationMs: elapsed(),
  });
  let url: URL;
  try {
    url = checkUrlShape(request.url);
  } catch (error) {
    return failure(`Refused: ${(error as Error).message}`);
  }
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), request.timeoutMs);
  let status: number | null = null;
  try {
    const response = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: abort.signal,
    });
    status = response.statusCode;
    const responseBody = await readCapped(response.body);
    const succeeded = status >= 200 && status < 300;
    const error = succeeded ? null : status >= 300 && status < 400 ? `Answered ${status} (redirects are not followed).` : `Answered ${status}.`;
    return { succeeded, status, responseBody, error, durationMs: elapsed() };
  } catch (error) {
    if (abort.signal.aborted || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
      return failure(`Timed out after ${request.timeoutMs} ms.`, status);
    }
    return failure(describeError(error as Error), status);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads up to RESPONSE_BODY_LIMIT bytes; a longer answer's connection is dropped rather than drained. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= RESPONSE_BODY_LIMIT) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
}

function describeError(error: Error & { code?: string; cause?: unknown }): string {
  const root = error.cause instanceof Error ? (error.cause as Error & { code?: string }) : error;
  if (root instanceof UnsafeUrlError || error instanceof UnsafeUrlError) return `Refused: ${(root instanceof UnsafeUrlError ? root : error).message}`;
  return root.code ? `${root.code}: ${root.message}` : root.message;
}
