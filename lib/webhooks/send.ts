import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkUrlShape, resolveSafeAddress, UnsafeUrlError, type HostResolver } from './url-guard';

export const RESPONSE_BODY_LIMIT = 4096;

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
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
 * One webhook POST: the host is resolved and checked once and the socket connects to that very
 * address; redirects are not followed (a 3xx is a failure); the whole exchange is bounded by
 * `timeoutMs`; only the first 4 KiB of the answer is read.
 */
export async function sendWebhookRequest(request: SendRequest): Promise<SendOutcome> {
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);
  let target: { url: URL; address: string; family: 4 | 6 };
  try {
    const url = checkUrlShape(request.url);
    const resolved = await resolveSafeAddress(url, { allowPrivate: request.allowPrivate, resolver: request.resolver });
    target = { url, ...resolved };
  } catch (error) {
    const message = error instanceof UnsafeUrlError ? `Refused: ${error.message}` : String(error);
    return { succeeded: false, status: null, responseBody: null, error: message, durationMs: elapsed() };
  }

  // Connect to the checked address only; net calls this instead of resolving the name again.
  const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };

  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const transport = target.url.protocol === 'https:' ? https : http;
    const req = transport.request(target.url, {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
      lookup: pinnedLookup,
      agent: false,
    });
    const timer = setTimeout(
      () => finish({ succeeded: false, status: null, responseBody: null, error: `Timed out after ${request.timeoutMs} ms.` }),
      request.timeoutMs,
    );
    req.on('error', (error) => finish({ succeeded: false, status: null, responseBody: null, error: describeError(error) }));
    req.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let length = 0;
      const done = () => {
        const responseBody = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
        const succeeded = status >= 200 && status < 300;
        const error = succeeded
          ? null
          : status >= 300 && status < 400
            ? `Answered ${status} (redirects are not followed).`
            : `Answered ${status}.`;
        finish({ succeeded, status, responseBody, error });
      };
      response.on('data', (chunk: Buffer) => {
        if (length < RESPONSE_BODY_LIMIT) chunks.push(chunk);
        length += chunk.length;
        if (length >= RESPONSE_BODY_LIMIT) done();
      });
      response.on('end', done);
      response.on('error', (error) => finish({ succeeded: false, status, responseBody: null, error: describeError(error) }));
    });
    req.end(request.body);
  });
}

function describeError(error: Error & { code?: string }): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
