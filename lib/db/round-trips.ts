import { AsyncLocalStorage } from 'node:async_hooks';
import { config } from '../config';

/**
 * Benchmark mode (`DB_COUNT_ROUND_TRIPS=true`): counts the statements each request sends to
 * PostgreSQL (every one is a round trip, BEGIN and COMMIT included) and answers the count in
 * `X-Db-Round-Trips`. Off by default: nothing is wrapped or counted.
 */
export const countingRoundTrips = config.database.countRoundTrips;

// One store per process, shared by every bundle that includes this module (Next.js may load it
// more than once, like the pool in ./client.ts).
const globalForCounting = globalThis as unknown as { __paybaseRoundTrips?: AsyncLocalStorage<{ count: number }> };
globalForCounting.__paybaseRoundTrips ??= new AsyncLocalStorage<{ count: number }>();
const perRequest = globalForCounting.__paybaseRoundTrips;

export function countRoundTrip(): void {
  const counter = perRequest.getStore();
  if (counter) counter.count++;
}

export async function withRoundTripCount(run: () => Promise<Response>): Promise<Response> {
  if (!countingRoundTrips) return run();
  const counter = { count: 0 };
  const response = await perRequest.run(counter, run);
  response.headers.set('X-Db-Round-Trips', String(counter.count));
  return response;
}
