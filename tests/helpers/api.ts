import { Agent, fetch as undiciFetch } from 'undici';
import { inject } from 'vitest';
import { contractViolations } from './contract';

export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export const baseUrl = () => inject('baseUrl');

/**
 * The suite's own connection pool to the server, apart from the global `fetch`'s that some tests
 * use for requests made to be refused (api-hardening.test.ts sends oversized bodies on its own).
 * Idle connections are dropped after 10 s: by default undici keeps one until 2 s before the
 * server's advertised keep-alive (65 s), and a worker whose event loop is busy longer than that
 * sends its next request on a connection the server has just closed ("other side closed").
 */
const suiteAgent = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 10_000 });

function closedUnderRequest(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code === 'UND_ERR_SOCKET' && cause.message === 'other side closed';
}

/** Calls the running service over HTTP, as a seller's backend would. */
export async function call<T = any>(
  method: string,
  path: string,
  /** `baseUrl`: a server a test started itself (default: the suite's shared server). */
  options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; baseUrl?: string } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const send = () => undiciFetch(`${options.baseUrl ?? baseUrl()}${path}`, { method, headers, body, dispatcher: suiteAgent });
  let response: Awaited<ReturnType<typeof send>>;
  try {
    response = await send();
  } catch (error) {
    // The shared server closed a kept-alive connection as this request went out on it ("other
    // side closed", seen once per full run under load): sent again once, on a new connection.
    // A server a test started itself (`baseUrl`) is often killed on purpose: never retried.
    if (options.baseUrl || !closedUnderRequest(error)) throw error;
    response = await send();
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  const answer = { status: response.status, headers: response.headers as unknown as Headers, body: parsed as T, text };
  // Every answer the suite sees is held to the OpenAPI document (tests/helpers/contract.ts).
  const violations = contractViolations(method, path, answer);
  if (violations.length > 0) {
    throw new Error(`${method} ${path} answered against the OpenAPI document:\n  ${violations.join('\n  ')}\n  body: ${text.slice(0, 500)}`);
  }
  return answer;
}

export function client(key: string) {
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>('GET', path, { key, headers }),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', path, { key, body, headers }),
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('PUT', path, { key, body, headers }),
  };
}
