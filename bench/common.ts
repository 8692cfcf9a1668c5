import crypto from 'node:crypto';
import type autocannon from 'autocannon';
import type { RunningServer } from '../tests/setup/server';

/** One autocannon round of one endpoint. */
export interface Sample {
  rate: number;
  p50: number;
  p99: number;
  errors: number;
}

export function sampleOf(result: autocannon.Result, seconds: number): Sample {
  return { rate: result.requests.total / seconds, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors + result.timeouts };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The demo seller's key from the server's banner. */
export function demoApiKey(server: RunningServer): string {
  return /Demo API key\s+(\S+)/.exec(server.output())![1]!;
}

/**
 * Setup calls to the developer API with the demo key (a fresh Idempotency-Key each): the parsed
 * body, and the round trips the server counted when DB_COUNT_ROUND_TRIPS is on. Throws on an error.
 */
export function demoApi(server: RunningServer, key: string) {
  return async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return { body: JSON.parse(text) as any, roundTrips: Number(response.headers.get('x-db-round-trips')) };
  };
}
