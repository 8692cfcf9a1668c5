import { createHmac, randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { fromFixture, stripeId, unixNow, type StripeObject } from './fixtures';
import { invalidRequest, StripeError } from './validation';

/**
 * Events and webhook endpoints (test code). Every event goes to each enabled endpoint that
 * listens for its type, signed as Stripe signs: `Stripe-Signature: t=<unix time>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>" with the endpoint's whsec_ secret>`. A failed delivery is retried
 * (Stripe retries for days; the emulator a few times, quickly).
 */
export function signPayload(payload: string, secret: string, timestamp = unixNow()): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

export interface Delivery {
  endpointId: string;
  eventId: string;
  status: number | null;
}

export class WebhookSender {
  readonly endpoints = new Map<string, StripeObject & { secret: string; account: string }>();
  readonly events: StripeObject[] = [];
  /** Every attempt, for tests and the emulator's log. */
  readonly deliveries: Delivery[] = [];
  private pending = new Set<Promise<void>>();

  constructor(private readonly options: { retryDelayMs: number; maxAttempts: number }) {}

  createEndpoint(params: Record<string, unknown>, livemode: boolean, account: string): StripeObject {
    const url = String(params.url);
    if (!/^https?:\/\//.test(url)) throw invalidRequest('Invalid URL: An explicit scheme (such as https) must be provided.', 'url', 'url_invalid');
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    const endpoint = fromFixture('webhook_endpoint', {
      id: stripeId('we'),
      api_version: params.api_version ?? null,
      created: unixNow(),
      description: params.description ?? null,
      enabled_events: params.enabled_events,
      livemode,
      metadata: params.metadata ?? {},
      status: 'enabled',
      url,
    });
    this.endpoints.set(endpoint.id, { ...endpoint, secret, account });
    // The secret is shown once, in the answer to the create.
    return { ...endpoint, secret };
  }

  listEndpoints(): StripeObject[] {
    return [...this.endpoints.values()].map(({ secret: _secret, account: _account, ...endpoint }) => endpoint as StripeObject);
  }

  deleteEndpoint(id: string): StripeObject {
    if (!this.endpoints.delete(id)) {
      throw new StripeError(404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such webhook endpoint: '${id}'` },
      });
    }
    return { id, object: 'webhook_endpoint', deleted: true };
  }

  /**
   * Records the event (a snapshot of the object now) and sends it to the endpoints of the account
   * whose request caused it (to every account's, for an event no request caused: a test helper's).
   */
  emit(
    type: string,
    object: StripeObject,
    request: { livemode: boolean; account?: string; idempotencyKey: string | null; requestId: string } | null,
  ): StripeObject {
    const { behaviour: _behaviour, ...snapshot } = structuredClone(object) as StripeObject & { behaviour?: unknown };
    const event = fromFixture('event', {
      id: stripeId('evt'),
      api_version: Stripe.API_VERSION,
      created: unixNow(),
      data: { object: snapshot },
      livemode: request?.livemode ?? Boolean(object.livemode),
      pending_webhooks: 0,
      request: { id: request?.requestId || null, idempotency_key: request?.idempotencyKey ?? null },
      type,
    });
    this.events.unshift(event);
    for (const endpoint of this.endpoints.values()) {
      const listens = (endpoint.enabled_events as string[]).some((e) => e === '*' || e === type);
      if (endpoint.status !== 'enabled' || !listens || Boolean(endpoint.livemode) !== Boolean(event.livemode)) continue;
      if (request?.account && endpoint.account !== request.account) continue;
      event.pending_webhooks = Number(event.pending_webhooks) + 1;
      this.track(this.deliver(endpoint, event));
    }
    return event;
  }

  event(id: string): StripeObject {
    const event = this.events.find((e) => e.id === id);
    if (!event)
      throw new StripeError(404, { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such event: '${id}'` } });
    return event;
  }

  /** Resolves once every delivery started so far has ended (sent or given up). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private track(delivery: Promise<void>) {
    this.pending.add(delivery);
    void delivery.finally(() => this.pending.delete(delivery));
  }

  private async deliver(endpoint: StripeObject & { secret: string }, event: StripeObject) {
    const payload = JSON.stringify(event, null, 2);
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      if (!this.endpoints.has(endpoint.id)) return;
      let status: number | null = null;
      try {
        const response = await fetch(String(endpoint.url), {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'stripe-signature': signPayload(payload, endpoint.secret),
          },
          body: payload,
          signal: AbortSignal.timeout(10_000),
        });
        status = response.status;
        await response.arrayBuffer();
      } catch {
        status = null;
      }
      this.deliveries.push({ endpointId: endpoint.id, eventId: String(event.id), status });
      if (status !== null && status >= 200 && status < 300) {
        event.pending_webhooks = Number(event.pending_webhooks) - 1;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs * attempt));
    }
  }
}
