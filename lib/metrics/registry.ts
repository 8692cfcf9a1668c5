import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (docs/operations.md, "Metrics"). One registry per process,
 * kept on globalThis: the Next.js server's bundles and the scripts that start it load this module
 * separately, and both must count into the same registry that `GET /metrics` serves.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
  moneyMoves: Counter<'kind' | 'by' | 'outcome'>;
  paymentsToReview: Counter;
  webhookAttempts: Counter<'result'>;
  webhookFirstAttemptLag: Histogram;
}

const shared = globalThis as unknown as { __paybaseMetrics?: Metrics };

export function metrics(): Metrics {
  shared.__paybaseMetrics ??= createMetrics();
  return shared.__paybaseMetrics;
}

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'paybase_' });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: 'paybase_http_requests_total',
      help: 'HTTP requests answered, by method, route (an API route template, "page", "static", "metrics" or "unmatched") and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'paybase_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer finishing, by method and route.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    moneyMoves: new Counter({
      name: 'paybase_money_moves_total',
      help: 'Money moves finished (phase 3 committed), by kind, how the outcome was found (charge, recovery, review) and outcome.',
      labelNames: ['kind', 'by', 'outcome'],
      registers,
    }),
    paymentsToReview: new Counter({
      name: 'paybase_payments_sent_to_review_total',
      help: 'Payments recovery gave up on and handed to a person (needs_review).',
      registers,
    }),
    webhookAttempts: new Counter({
      name: 'paybase_webhook_attempts_total',
      help: 'Webhook attempts made by this process, by result: delivered (2xx), refused (another status), no_answer (timeout, connection error, not sent).',
      labelNames: ['result'],
      registers,
    }),
    webhookFirstAttemptLag: new Histogram({
      name: 'paybase_webhook_first_attempt_lag_seconds',
      help: "Time from an event to its delivery's first automatic attempt.",
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    }),
  };
}
