import { z } from 'zod';
import { parseDuration, parseDurationList } from './durations';

/**
 * Every environment variable Paybase reads, with its type and default (docs/operations.md,
 * "Configuration", lists them; a test holds that table to this schema). Values arrive as text;
 * an empty value counts as unset. lib/config.ts parses them once per process.
 */

const MAX = Number.MAX_SAFE_INTEGER;

function wholeNumberRange(min: number, max: number): string {
  if (max !== MAX) return `from ${min} to ${max}`;
  return min === -MAX ? '' : `of at least ${min}`;
}

/** A whole number (as `Number()` reads it, so `1e9` is a billion) between `min` and `max`. */
function wholeNumber(fallback: number, { min = 1, max = MAX }: { min?: number; max?: number } = {}) {
  return z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return fallback;
      const value = Number(text);
      if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
      ctx.addIssue({ code: 'custom', message: `expected a whole number ${wholeNumberRange(min, max)}`.trimEnd() });
      return z.NEVER;
    });
}

/** `true` or `false`, nothing else (a `1` or `yes` is refused rather than read as either). */
function flag(fallback: boolean) {
  return z
    .enum(['true', 'false'], { error: 'expected true or false' })
    .optional()
    .transform((text) => (text === undefined ? fallback : text === 'true'));
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return z.enum(values, { error: `expected one of ${values.join(', ')}` }).default(fallback);
}

/** A duration such as `500ms`, `5s`, `30m`, `2h` or `5d`, kept as written. */
function duration(fallback: string) {
  return z.string().default(fallback).refine(parses(parseDuration), 'expected a duration such as 500ms, 5s, 30m, 2h or 5d');
}

/** Comma-separated durations, kept as written. */
function durationList(fallback: string) {
  return z.string().default(fallback).refine(parses(parseDurationList), 'expected comma-separated durations such as 5s,5m,30m');
}

function parses(parse: (text: string) => unknown) {
  return (text: string) => {
    try {
      parse(text);
      return true;
    } catch {
      return false;
    }
  };
}

/** Comma-separated positive numbers, e.g. `1,3,5,7`. */
function positiveNumberList(fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const values = text
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '')
        .map(Number);
      if (values.length > 0 && values.every((value) => Number.isFinite(value) && value > 0)) return values;
      ctx.addIssue({ code: 'custom', message: 'expected comma-separated positive numbers such as 1,3,5,7' });
      return z.NEVER;
    });
}

const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// address' });

export const SECRET_KEY_MIN_LENGTH = 32;

export const configSchema = z
  .object({
    // The process
    APP_ENV: oneOf(['development', 'production'], 'development'),
    PORT: wholeNumber(3000, { min: 0, max: 65_535 }),
    HOST: z.string().default('0.0.0.0'),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: wholeNumber(65_000, { min: 1_000, max: 600_000 }),
    PUBLIC_URL: httpUrl.optional(),
    DATA_DIR: z.string().default('.data'),
    LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    RUN_WORKER: flag(true),
    WORKER_CONCURRENCY: wholeNumber(5),
    // Metrics (GET /metrics): a bearer token required when set; a worker serves them on a port of its own when set.
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    WORKER_METRICS_PORT: wholeNumber(0, { min: 0, max: 65_535 }),
    TRUST_PROXY: flag(false),
    PRELOAD_PAGES: flag(true),
    SECRET_KEY: z.string().min(SECRET_KEY_MIN_LENGTH, `must be at least ${SECRET_KEY_MIN_LENGTH} characters`).optional(),
    // Only tests set it: shifts the process clock (lib/clock.ts).
    CLOCK_OFFSET_MS: wholeNumber(0, { min: -MAX }),

    // The database
    DATABASE_URL: z.string().optional(),
    DATABASE_DIRECT_URL: z.string().optional(),
    DATABASE_POOL_SIZE: wholeNumber(10),
    DATABASE_LEASE_POOL_SIZE: wholeNumber(2),
    DATABASE_PREPARED_STATEMENTS: flag(true),
    DB_COUNT_ROUND_TRIPS: flag(false),
    EMBEDDED_POSTGRES_SETTINGS: z.string().default(''),
    DATABASE_SCHEMA_WAIT_MS: wholeNumber(300_000, { min: 0 }),

    // Stopping a web node (SIGTERM)
    SHUTDOWN_READINESS_DELAY_MS: wholeNumber(0, { min: 0, max: 600_000 }),
    SHUTDOWN_DRAIN_MS: wholeNumber(25_000, { min: 0, max: 600_000 }),

    // Seeding
    ADMIN_NAME: z.string().optional(),
    ADMIN_PASSWORD: z.string().optional(),
    ADMIN_EMAIL: z.email().optional(),
    SEED_DEMO: flag(false),
    SEED_SAMPLE_DATA: flag(false),
    DEMO_MERCHANT_EMAIL: z.string().optional(),
    DEMO_MERCHANT_PASSWORD: z.string().optional(),
    DEMO_API_KEY: z.string().optional(),

    // Email
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default('Paybase <no-reply@localhost>'),

    // Sign-in and request limits
    PASSWORD_SCRYPT_LOG2_N: wholeNumber(17, { min: -MAX }),
    SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_IP: wholeNumber(5),
    SIGN_IN_MAX_FAILURES_PER_IP: wholeNumber(50),
    SIGN_IN_MAX_FAILURES_PER_ACCOUNT: wholeNumber(100),
    SIGN_UP_MAX_PER_IP: wholeNumber(30),
    PASSWORD_RESET_MAX_PER_EMAIL: wholeNumber(3),
    API_RATE_LIMIT: wholeNumber(100),
    API_RATE_LIMIT_WINDOW_SECONDS: wholeNumber(1),
    MAX_REQUEST_BODY_BYTES: wholeNumber(1024 * 1024),
    IDEMPOTENCY_LEASE_MS: wholeNumber(5_000, { min: 1_000, max: 60_000 }),

    // Payments and subscriptions
    SANDBOX_PROCESSOR_LATENCY_MS: wholeNumber(0, { min: 0, max: 60_000 }),
    PAYMENT_RECONCILE_DELAY_MS: wholeNumber(5_000, { min: 0 }),
    PAYMENT_PENDING_RECONCILE_AFTER_MS: wholeNumber(120_000, { min: 0 }),
    PAYMENT_RECOVERY_MAX_ATTEMPTS: wholeNumber(20, { min: 1 }),
    PAYMENT_ACTION_TIMEOUT_MS: wholeNumber(3_600_000, { min: 1_000 }),
    SUBSCRIPTION_DUNNING_DAYS: positiveNumberList('1,3,5,7'),
    USAGE_GRACE_PERIOD: duration('1h'),

    // The payment processor (docs/processors.md)
    PAYMENT_PROCESSOR: oneOf(['sandbox', 'stripe'], 'sandbox'),
    // The sandbox takes no real money: under APP_ENV=production it runs only when this says so (a demo install).
    ALLOW_SANDBOX_IN_PRODUCTION: flag(false),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(?:sk|rk)_(?:test|live)_[A-Za-z0-9]+$/, 'expected a Stripe secret or restricted key (sk_test_…, sk_live_…, rk_test_…, rk_live_…)')
      .optional(),
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .regex(/^pk_(?:test|live)_[A-Za-z0-9]+$/, 'expected a Stripe publishable key (pk_test_… or pk_live_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_\S+$/, 'expected a Stripe webhook signing secret (whsec_…)')
      .optional(),
    STRIPE_API_URL: httpUrl.default('https://api.stripe.com'),
    // Stripe.js's release train follows the API version of the installed `stripe` package (tests/unit/config.test.ts).
    STRIPE_JS_URL: httpUrl.default('https://js.stripe.com/endive/stripe.js'),

    // Webhooks
    WEBHOOK_RETRY_SCHEDULE: durationList('5s,5m,30m,2h,5h,10h,10h'),
    WEBHOOK_TIMEOUT_MS: wholeNumber(10_000),
    WEBHOOK_ALLOW_PRIVATE_URLS: flag(false),
    WEBHOOK_ENDPOINT_CONCURRENCY: wholeNumber(100),
    WEBHOOK_FAILING_ENDPOINT_CONCURRENCY: wholeNumber(4),
    WEBHOOK_MAX_IN_FLIGHT: wholeNumber(1000),
    WEBHOOK_DISABLE_AFTER: duration('5d'),
  })
  .superRefine((env, ctx) => {
    checkProcessor(env, ctx);
    // Every server and worker of an installation must share the key; a per-machine file would not.
    if (env.APP_ENV === 'production' && !env.SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: ['SECRET_KEY'], message: 'must be set when APP_ENV=production (it signs tokens and encrypts webhook secrets)' });
    }
  });

type ParsedVariables = z.output<z.ZodObject<typeof configSchema.shape>>;

/** Stripe needs its keys, of one mode; production takes real money, so not the sandbox unless an operator allows it. */
function checkProcessor(env: ParsedVariables, ctx: z.RefinementCtx) {
  if (env.PAYMENT_PROCESSOR === 'sandbox') {
    if (env.APP_ENV === 'production' && !env.ALLOW_SANDBOX_IN_PRODUCTION) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_PROCESSOR'],
        message: 'is the sandbox, which takes no real money: set PAYMENT_PROCESSOR=stripe, or ALLOW_SANDBOX_IN_PRODUCTION=true for a demo install',
      });
    }
    return;
  }
  if (!env.STRIPE_SECRET_KEY) ctx.addIssue({ code: 'custom', path: ['STRIPE_SECRET_KEY'], message: 'must be set when PAYMENT_PROCESSOR=stripe' });
  if (!env.STRIPE_PUBLISHABLE_KEY) ctx.addIssue({ code: 'custom', path: ['STRIPE_PUBLISHABLE_KEY'], message: 'must be set when PAYMENT_PROCESSOR=stripe' });
  const secretMode = /_(test|live)_/.exec(env.STRIPE_SECRET_KEY ?? '')?.[1];
  const publishableMode = /_(test|live)_/.exec(env.STRIPE_PUBLISHABLE_KEY ?? '')?.[1];
  if (secretMode && publishableMode && secretMode !== publishableMode) {
    ctx.addIssue({ code: 'custom', path: ['STRIPE_PUBLISHABLE_KEY'], message: `is a ${publishableMode} key but STRIPE_SECRET_KEY is a ${secretMode} key` });
  }
}

export type ConfigVariables = z.output<typeof configSchema>;
export type ConfigVariableName = keyof ConfigVariables;

export const CONFIG_VARIABLES = Object.keys(configSchema.shape) as ConfigVariableName[];

/** Variables whose values are never repeated in an error message (they hold passwords or keys). */
export const SECRET_VARIABLES: ReadonlySet<ConfigVariableName> = new Set([
  'SECRET_KEY',
  'DATABASE_URL',
  'DATABASE_DIRECT_URL',
  'METRICS_TOKEN',
  'SMTP_URL',
  'ADMIN_PASSWORD',
  'DEMO_MERCHANT_PASSWORD',
  'DEMO_API_KEY',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
]);
