import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { StripeObject } from './fixtures';
import { StripeStore, type StoreContext } from './store';
import { compileOperations, parseParams, StripeError, validateParams, type CompiledOperation } from './validation';
import { serveBrowserFile, STRIPE_JS_PATH } from './stripe-js';
import { WebhookSender } from './webhooks';
import { apiRoutes, type Handler } from './routes';
import { authenticationPage, publicView, testHelper } from './pages';

/**
 * A Stripe emulator for tests and local runs (test code, not Stripe): the part of Stripe's API
 * Paybase uses, stateful and in memory (docs/processors.md, "Local testing"). Requests are held
 * to the `stripe` package's own parameter types (validation.ts), answers are shaped from
 * Stripe's published fixtures, `Idempotency-Key` works as Stripe's does, and events are sent to
 * registered webhook endpoints signed as Stripe signs them. Its API routes are routes.ts (cards:
 * routes-cards.ts); what it serves to browsers, pages.ts (3-D Secure) and stripe-js.ts (Stripe.js).
 */
export interface EmulatorOptions {
  port?: number;
  host?: string;
  /** Delay before a webhook's next attempt, times the attempt number. */
  webhookRetryDelayMs?: number;
  webhookMaxAttempts?: number;
}

interface StoredAnswer {
  fingerprint: string;
  status: number;
  body: string;
}

export class StripeEmulator {
  readonly webhooks: WebhookSender;
  readonly store: StripeStore;
  /** Every API request received: method, path and the decoded parameters. */
  readonly requests: { method: string; path: string; params: Record<string, unknown>; idempotencyKey: string | null; account: string }[] = [];
  private readonly operations = compileOperations();
  private readonly idempotent = new Map<string, StoredAnswer>();
  private readonly handlers: Record<string, Handler>;
  private server: http.Server | undefined;
  private failures: { status: number; count: number; afterHandling: boolean; request?: string } | undefined;
  private readonly holds: { request: string; afterHandling: boolean; arrived: () => void; released: Promise<void>; answered: () => void }[] = [];
  baseUrl = '';

  /** Where the emulator's stand-in for Stripe.js is (STRIPE_JS_URL of a Paybase pointed at it). */
  get stripeJsUrl(): string {
    return `${this.baseUrl}${STRIPE_JS_PATH}`;
  }

  constructor(private readonly options: EmulatorOptions = {}) {
    this.webhooks = new WebhookSender({ retryDelayMs: options.webhookRetryDelayMs ?? 1000, maxAttempts: options.webhookMaxAttempts ?? 5 });
    this.store = new StripeStore((type, object, ctx) => this.webhooks.emit(type, object, ctx));
    this.handlers = apiRoutes(this.store, this.webhooks);
  }

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /**
   * The next `count` API requests (to `request`, when given) answer `status` (Stripe's `api_error`), before they are
   * handled, or after (the request took effect but its answer was lost, as in a timeout; a
   * retry replaying it with its Idempotency-Key loses its answer too while failures remain).
   */
  failNextRequests(count: number, options: { status?: number; afterHandling?: boolean; request?: string } = {}) {
    this.failures = { status: options.status ?? 500, count, afterHandling: options.afterHandling ?? false, request: options.request };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const requestId = `req_${randomBytes(10).toString('hex')}`;
    res.setHeader('request-id', requestId);
    if (url.pathname.startsWith('/emulator/authenticate/')) return authenticationPage(this.store, req, res, url, body);
    if (serveBrowserFile(req, res, url)) return;
    if (url.pathname.startsWith('/emulator/test-helpers/')) return testHelper(this.store, req, res, url, body);
    // Stripe.js calls the API from the shop's own page, across origins, as Stripe's API allows.
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res
        .writeHead(204, { 'access-control-allow-methods': 'GET, POST, DELETE', 'access-control-allow-headers': 'authorization, content-type, stripe-version' })
        .end();
      return;
    }
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof payload === 'string' ? payload : JSON.stringify(payload, null, 2));
    };
    let hold: ReturnType<StripeEmulator['takeHold']>;
    try {
      const { livemode, publishable, account } = authenticate(req.headers.authorization);
      const method = req.method ?? 'GET';
      const op = this.operations.find((o) => o.method === method && o.pattern.test(url.pathname));
      if (!op) throw new StripeError(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url.pathname}).` } });
      if (publishable && !PUBLISHABLE_KEY_OPERATIONS.has(`${op.method} ${op.path}`)) {
        throw new StripeError(401, {
          error: {
            type: 'invalid_request_error',
            message:
              'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.',
          },
        });
      }
      const params = parseParams(method === 'POST' ? body : url.search.slice(1));
      const idempotencyKey = method === 'POST' ? ((req.headers['idempotency-key'] as string | undefined) ?? null) : null;
      this.requests.push({ method, path: url.pathname, params: structuredClone(params), idempotencyKey, account });
      const fingerprint = createHash('sha256').update(`${method} ${url.pathname} ${body}`).digest('hex');
      hold = this.takeHold(`${method} ${url.pathname}`);
      if (hold && !hold.afterHandling) {
        hold.arrived();
        await hold.released;
      }
      const storeKey = idempotencyKey ? `${account}:${livemode}:${idempotencyKey}` : null;
      const stored = storeKey ? this.idempotent.get(storeKey) : undefined;
      const failure = this.takeFailure(`${method} ${url.pathname}`);
      if (failure && (!failure.afterHandling || stored)) throw apiError(failure.status);
      if (stored) {
        if (stored.fingerprint !== fingerprint) {
          throw new StripeError(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
        }
        return send(stored.status, stored.body, { 'idempotent-replayed': 'true', 'idempotency-key': idempotencyKey! });
      }
      validateParams(op, params);
      const { status, payload } = this.run(op, url.pathname, params, { livemode, account, publishable, baseUrl: this.baseUrl, idempotencyKey, requestId });
      const text = JSON.stringify(payload, null, 2);
      // Stripe keeps the answer of every request that began to execute (card errors included).
      if (storeKey) this.idempotent.set(storeKey, { fingerprint, status, body: text });
      if (failure) throw apiError(failure.status);
      if (hold?.afterHandling) {
        hold.arrived();
        await hold.released;
      }
      send(status, text, idempotencyKey ? { 'idempotency-key': idempotencyKey } : {});
    } catch (error) {
      if (error instanceof StripeError) return send(error.status, error.body);
      console.error('stripe emulator:', error);
      send(500, { error: { type: 'api_error', message: 'An unknown error occurred in the emulator.' } });
    } finally {
      hold?.answered();
    }
  }

  private run(op: CompiledOperation, path: string, params: Record<string, unknown>, ctx: StoreContext): { status: number; payload: unknown } {
    const id = op.pattern.exec(path)?.[1];
    const expand = Array.isArray(params.expand) ? (params.expand as string[]) : [];
    try {
      const answer = publicView(this.handlers[`${op.method} ${op.path}`]!({ id: id && decodeURIComponent(id), params, ctx }));
      return { status: 200, payload: this.expanded(answer, expand) };
    } catch (error) {
      if (error instanceof StripeError && error.status === 402) return { status: 402, payload: publicView(error.body) };
      throw error;
    }
  }

  /** Stripe's `expand[]`: each named field holding an id is replaced by that object (`data.x` in lists). */
  private expanded(answer: unknown, paths: string[]): unknown {
    const objects: Record<string, Map<string, StripeObject>> = {
      pm: this.store.paymentMethods,
      ch: this.store.charges,
      pi: this.store.paymentIntents,
      cus: this.store.customers,
      seti: this.store.setupIntents,
      re: this.store.refunds,
      dp: this.store.disputes,
    };
    for (const path of paths) {
      const [first, ...rest] = path.split('.');
      const targets =
        first === 'data' && Array.isArray((answer as { data?: unknown }).data)
          ? (answer as { data: Record<string, unknown>[] }).data
          : [answer as Record<string, unknown>];
      const field = first === 'data' ? rest.join('.') : path;
      for (const target of targets) {
        const value = target[field];
        const found = typeof value === 'string' ? objects[value.split('_')[0]!]?.get(value) : undefined;
        if (found) target[field] = publicView(found);
      }
    }
    return answer;
  }

  /** `request`: only requests to this `METHOD /path` count (all when unset). */
  /**
   * The next request to `request` (`METHOD /path`) waits for `release()`: before it is handled
   * (Stripe has not seen it yet), or after (it took effect, its answer not sent). Meanwhile the
   * caller can be killed, as a crash between a money move's phases.
   */
  holdNextRequest(request: string, options: { afterHandling?: boolean } = {}) {
    let arrived!: () => void;
    let release!: () => void;
    let answered!: () => void;
    const answer = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.holds.push({ request, afterHandling: options.afterHandling ?? false, arrived, released, answered });
    /** `answered`: the held request was answered (after `release`), whatever the answer. */
    return { arrived: arrival, release, answered: answer };
  }

  private takeHold(request: string) {
    const index = this.holds.findIndex((hold) => hold.request === request);
    return index < 0 ? undefined : this.holds.splice(index, 1)[0];
  }

  private takeFailure(request: string) {
    if (!this.failures || this.failures.count <= 0) return undefined;
    if (this.failures.request && this.failures.request !== request) return undefined;
    this.failures.count--;
    return this.failures;
  }
}

/** What Stripe.js calls with the publishable key (a SetupIntent only with its client secret); every other request needs a secret key. */
const PUBLISHABLE_KEY_OPERATIONS = new Set(['POST /v1/payment_methods', 'GET /v1/setup_intents/:id']);

function authenticate(header: string | undefined): { livemode: boolean; publishable: boolean; account: string } {
  const key = /^Bearer (\S+)$/.exec(header ?? '')?.[1];
  if (!key) {
    throw new StripeError(401, {
      error: {
        type: 'invalid_request_error',
        message: 'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth.',
      },
    });
  }
  const match = /^(sk|rk|pk)_(test|live)_[A-Za-z0-9]{8,}$/.exec(key);
  if (!match)
    throw new StripeError(401, {
      error: { type: 'invalid_request_error', code: 'api_key_invalid', message: `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}` },
    });
  return { livemode: match[2] === 'live', publishable: match[1] === 'pk', account: accountOfKey(key) };
}

function apiError(status: number): StripeError {
  return new StripeError(status, { error: { type: 'api_error', message: 'The emulator was told to fail this request.' } });
}

/**
 * The account a key stands for: the same for a key's secret, restricted and publishable forms
 * (`sk_test_X`, `rk_test_X`, `pk_test_X`). Accounts share the emulator's objects; tests tell
 * them apart by the `account` of each recorded request.
 */
export function accountOfKey(key: string): string {
  const secret = key.replace(/^(?:sk|rk|pk)_(?:test|live)_/, '');
  return `acct_${createHash('sha256').update(secret).digest('hex').slice(0, 16)}`;
}
