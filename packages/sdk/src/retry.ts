/** When and how often the client sends a request again. */
export interface RetryOptions {
  /** Attempts after the first (default 3). */
  maxRetries?: number;
  /** First backoff in milliseconds, doubled on every retry, with full jitter (default 250). */
  baseDelayMs?: number;
  /** Longest wait between attempts, also for a `Retry-After` (default 5000). */
  maxDelayMs?: number;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/**
 * How long one attempt may take before it is abandoned (a `TimeoutError`): longer than a
 * checkout waiting for a slow processor, shorter than a hung connection.
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * A fetch that gives each attempt `timeoutMs`, and retries what can be sent twice without doing twice: GET, PUT and DELETE, and a
 * POST that carries an Idempotency-Key (the same key on every attempt, so the server executes
 * it once). It retries network errors, 5xx answers (except a replayed one: the key already
 * holds that answer) and 409 IDEMPOTENCY_KEY_IN_USE (after its `Retry-After`). A 429
 * RATE_LIMITED was not executed, so any request is sent again after its `Retry-After`, unless
 * that is longer than `maxDelayMs` (the 429 is then the answer).
 */
export function retryingFetch(fetchImpl: typeof fetch, options: RetryOptions = {}, timeoutMs = DEFAULT_TIMEOUT_MS): typeof fetch {
  const maxRetries = options.maxRetries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 5000;
  const backoff = (attempt: number) => Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);

  return async (input, init) => {
    const request = new Request(input, init);
    const repeatable = SAFE_METHODS.has(request.method) || request.headers.has('idempotency-key');
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= maxRetries;
      let response: Response;
      try {
        // Each attempt has its own time limit; the caller's own signal still cancels everything.
        const signal = AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]);
        response = await fetchImpl(last ? request : request.clone(), { signal });
      } catch (error) {
        if (last || !repeatable || request.signal.aborted) throw error;
        await sleep(backoff(attempt));
        continue;
      }
      if (last) return response;
      const wait = response.status === 429 ? rateLimitDelay(response, maxDelayMs) : repeatable ? await retryDelay(response) : undefined;
      if (wait === undefined) return response;
      await response.body?.cancel();
      await sleep(Math.min(maxDelayMs, wait ?? 0) || backoff(attempt));
    }
  };
}

/** How long to wait before retrying this answer (0: use the backoff), or undefined: do not retry. */
async function retryDelay(response: Response): Promise<number | undefined> {
  const retryAfter = Number(response.headers.get('retry-after')) * 1000 || 0;
  if (response.status >= 500) return response.headers.get('idempotent-replayed') === 'true' ? undefined : retryAfter;
  if (response.status !== 409) return undefined;
  const problem = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { code?: string } | undefined;
  return problem?.code === 'IDEMPOTENCY_KEY_IN_USE' ? retryAfter : undefined;
}

/** A 429's `Retry-After` in milliseconds, or undefined when it is longer than the client waits. */
function rateLimitDelay(response: Response, maxDelayMs: number): number | undefined {
  const retryAfter = Number(response.headers.get('retry-after')) * 1000;
  return Number.isFinite(retryAfter) && retryAfter >= 0 && retryAfter <= maxDelayMs ? retryAfter : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
