import createClient, { type Client, type FetchResponse, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';
import { PaybaseError } from './errors.js';
import { IDEMPOTENT_OPERATIONS } from './idempotent-operations.js';
import { retryingFetch, type RetryOptions } from './retry.js';
import { API_VERSION } from './api-version.js';

export interface PaybaseOptions {
  /** Where the service runs, e.g. `https://payments.example.com`. */
  baseUrl: string;
  /** A secret API key (developer API). Keep it in backend configuration only. */
  apiKey?: string;
  /** Or a sign-in access token (sign-in APIs). */
  accessToken?: string;
  /**
   * The dated API version to call (`Paybase-Version`), by default the one this SDK was generated
   * for (`API_VERSION`), whose types it carries. A call may pass its own in `params.header`.
   */
  apiVersion?: string;
  retry?: RetryOptions;
  /** Milliseconds one attempt may take before it is abandoned with a `TimeoutError` (default 60,000); a repeatable request is then retried. */
  timeoutMs?: number;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

type Method = 'get' | 'post' | 'put' | 'delete';
/** The paths that answer `method` (absent methods are `?: never` in the generated types). */
type PathsWith<M extends Method> = { [P in keyof paths]: paths[P] extends { [K in M]: unknown } ? P : never }[keyof paths];
type InitArgs<I> = Record<never, never> extends I ? [init?: I] : [init: I];
type Data<P extends keyof paths, M extends Method, I> = NonNullable<
  FetchResponse<paths[P][M] & Record<string | number, unknown>, I, `${string}/${string}`>['data']
>;

/** Calls one operation and answers its success body; any error answer throws a PaybaseError. */
type DataMethod<M extends Method> = <P extends PathsWith<M>, I extends MaybeOptionalInit<paths[P], M>>(path: P, ...init: InitArgs<I>) => Promise<Data<P, M, I>>;

/** GET paths whose answer is a page: `{ data, page, pageSize, totalCount, hasMore }`. */
export type ListPath = {
  [P in PathsWith<'get'>]: Data<P, 'get', Record<never, never>> extends { data: unknown[]; hasMore: boolean } ? P : never;
}[PathsWith<'get'>];
type Item<P extends ListPath> = Data<P, 'get', Record<never, never>> extends { data: (infer T)[] } ? T : never;

/** Sends an Idempotency-Key on the IK endpoints unless the caller chose one; retries reuse it. */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (IDEMPOTENT_OPERATIONS.has(`${request.method} ${schemaPath}`) && !request.headers.has('idempotency-key')) {
      request.headers.set('Idempotency-Key', crypto.randomUUID());
    }
    return request;
  },
};

/** The typed Paybase client: `paybase.post('/api/Price', { body })` answers the created price. */
export class Paybase {
  /** The underlying openapi-fetch client (answers `{ data, error, response }` without throwing). */
  readonly raw: Client<paths>;

  constructor(options: PaybaseOptions) {
    const credential = options.apiKey ?? options.accessToken;
    this.raw = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/$/, ''),
      headers: { 'Paybase-Version': options.apiVersion ?? API_VERSION, ...(credential ? { Authorization: `Bearer ${credential}` } : {}) },
      fetch: retryingFetch(options.fetch ?? globalThis.fetch, options.retry, options.timeoutMs),
    });
    this.raw.use(idempotencyKeys);
  }

  readonly get: DataMethod<'get'> = (path, ...init) => unwrap(this.raw.GET(path as never, ...(init as [never])));
  readonly post: DataMethod<'post'> = (path, ...init) => unwrap(this.raw.POST(path as never, ...(init as [never])));
  readonly put: DataMethod<'put'> = (path, ...init) => unwrap(this.raw.PUT(path as never, ...(init as [never])));
  readonly delete: DataMethod<'delete'> = (path, ...init) => unwrap(this.raw.DELETE(path as never, ...(init as [never])));

  /**
   * Every item of a list, page after page (`for await (const price of paybase.list('/api/Price'))`).
   * After the first page it follows cursors (`startingAfter` the last item's id, or `endingBefore`
   * the first item's when the caller started with `endingBefore`), so a deep list costs what its
   * first page does and an item created meanwhile shifts nothing. A custom value's id is its key.
   * Ordered by another field than `createdAt` or the item's own id or key (a name, an email: values
   * some items lack, which no cursor can stand after) it asks for the next page number instead.
   */
  async *list<P extends ListPath, I extends MaybeOptionalInit<paths[P], 'get'>>(path: P, ...init: InitArgs<I>): AsyncGenerator<Item<P>> {
    const options = (init[0] ?? {}) as { params?: { query?: ListQuery } };
    let query: ListQuery = { ...options.params?.query };
    for (;;) {
      const answer = (await this.get(path as never, { ...options, params: { ...options.params, query } } as never)) as { data: Item<P>[]; hasMore: boolean };
      yield* answer.data;
      if (!answer.hasMore) return;
      query = nextPage(query, answer.data as ListItem[]);
    }
  }
}

type ListQuery = { page?: number; startingAfter?: string; endingBefore?: string } & Record<string, unknown>;
type ListItem = { id?: unknown; key?: unknown };
/** Orders every item has a value for, so a cursor (an item's id or key) can say where the next page starts. */
const CURSOR_ORDERS = new Set(['createdAt', 'id', 'key']);

/** The query of the page after this one (`hasMore` promises it has items). */
function nextPage({ page, startingAfter: _after, endingBefore, ...rest }: ListQuery, items: ListItem[]): ListQuery {
  if (!CURSOR_ORDERS.has(String(rest.orderBy ?? 'createdAt'))) return { ...rest, page: (page ?? 1) + 1 };
  const backward = endingBefore !== undefined;
  const edge = (backward ? items[0] : items.at(-1))!;
  const cursor = String(typeof edge.id === 'string' ? edge.id : edge.key);
  return backward ? { ...rest, endingBefore: cursor } : { ...rest, startingAfter: cursor };
}

// biome-ignore lint/suspicious/noExplicitAny: the typed methods above declare the answer's type; this shared body only passes it through.
async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<any> {
  const { data, error, response } = await call;
  if (!response.ok) throw PaybaseError.fromAnswer(response.status, error);
  return data;
}

export function createPaybase(options: PaybaseOptions): Paybase {
  return new Paybase(options);
}
