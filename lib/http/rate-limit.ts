import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { config } from '../config';
import { ApiError } from './errors';

/**
 * The developer API's rate limit: a fixed window of `API_RATE_LIMIT` requests per
 * `API_RATE_LIMIT_WINDOW_SECONDS` per API key, counted in this process's memory (no database
 * round trip; several processes each count their own share, docs/api.md "Rate limits").
 */
const state = globalThis as unknown as { __paybaseApiRateLimiter?: RateLimiterMemory };

function limiter(): RateLimiterMemory {
  state.__paybaseApiRateLimiter ??= new RateLimiterMemory({
    keyPrefix: 'api-key',
    points: config.http.apiRateLimit,
    duration: config.http.apiRateLimitWindowSeconds,
  });
  return state.__paybaseApiRateLimiter;
}

/** The `RateLimit-*` header fields (draft-ietf-httpapi-ratelimit-headers-06) of one count. */
function rateLimitHeaders(result: RateLimiterRes, limit: number, windowSeconds: number): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(result.remainingPoints),
    'RateLimit-Reset': String(Math.max(1, Math.ceil(result.msBeforeNext / 1000))),
    'RateLimit-Policy': `${limit};w=${windowSeconds}`,
  };
}

/**
 * Counts one request of an API key and returns the headers every answer to it carries; over
 * the limit, throws 429 RATE_LIMITED with `Retry-After` (the seconds until the window resets).
 */
export async function countApiRequest(apiKeyId: string): Promise<Record<string, string>> {
  const rateLimiter = limiter();
  const { points, duration } = rateLimiter;
  try {
    return rateLimitHeaders(await rateLimiter.consume(apiKeyId), points, duration);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const headers = rateLimitHeaders(rejection, points, duration);
    throw new ApiError('RATE_LIMITED', `This API key made more than ${points} requests in ${duration} s. Retry after ${headers['RateLimit-Reset']} s.`, {
      headers: { ...headers, 'Retry-After': headers['RateLimit-Reset']! },
      extra: { limit: points, windowSeconds: duration },
    });
  }
}
