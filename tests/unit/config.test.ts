import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@/lib/config';
import { CONFIG_VARIABLES } from '@/lib/config-schema';
import { TEST_SERVER_ENV } from '../setup/server';
import { WEBHOOK_TEST_ENV } from '../setup/start-server';

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

describe('configuration', () => {
  it('keeps the defaults the code had before it was parsed in one place', () => {
    const defaults = parseConfig({});
    expect(defaults).toMatchObject({
      APP_ENV: 'development',
      PORT: 3000,
      HOST: '0.0.0.0',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: 65_000,
      DATA_DIR: '.data',
      LOG_LEVEL: 'info',
      RUN_WORKER: true,
      WORKER_CONCURRENCY: 5,
      TRUST_PROXY: false,
      PRELOAD_PAGES: true,
      CLOCK_OFFSET_MS: 0,
      DATABASE_POOL_SIZE: 10,
      DATABASE_LEASE_POOL_SIZE: 2,
      DATABASE_PREPARED_STATEMENTS: true,
      DB_COUNT_ROUND_TRIPS: false,
      EMBEDDED_POSTGRES_SETTINGS: '',
      SEED_DEMO: false,
      SEED_SAMPLE_DATA: false,
      MAIL_FROM: 'Paybase <no-reply@localhost>',
      PASSWORD_SCRYPT_LOG2_N: 17,
      SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_IP: 5,
      SIGN_IN_MAX_FAILURES_PER_ACCOUNT: 100,
      SIGN_IN_MAX_FAILURES_PER_IP: 50,
      SIGN_UP_MAX_PER_IP: 30,
      PASSWORD_RESET_MAX_PER_EMAIL: 3,
      API_RATE_LIMIT: 100,
      API_RATE_LIMIT_WINDOW_SECONDS: 1,
      MAX_REQUEST_BODY_BYTES: 1024 * 1024,
      SANDBOX_PROCESSOR_LATENCY_MS: 0,
      PAYMENT_RECONCILE_DELAY_MS: 5_000,
      PAYMENT_PENDING_RECONCILE_AFTER_MS: 120_000,
      SUBSCRIPTION_DUNNING_DAYS: [1, 3, 5, 7],
      WEBHOOK_RETRY_SCHEDULE: '5s,5m,30m,2h,5h,10h,10h',
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_ALLOW_PRIVATE_URLS: false,
      WEBHOOK_ENDPOINT_CONCURRENCY: 100,
      WEBHOOK_FAILING_ENDPOINT_CONCURRENCY: 4,
      WEBHOOK_MAX_IN_FLIGHT: 1000,
      WEBHOOK_DISABLE_AFTER: '5d',
    });
    for (const unset of ['PUBLIC_URL', 'DATABASE_URL', 'SECRET_KEY', 'ADMIN_NAME', 'ADMIN_PASSWORD', 'SMTP_URL', 'DEMO_API_KEY'] as const) {
      expect(defaults[unset]).toBeUndefined();
    }
  });

  it('accepts the settings the test servers and benchmarks pass, and counts an empty value as unset', () => {
    const parsed = parseConfig({
      ...TEST_SERVER_ENV,
      ...WEBHOOK_TEST_ENV,
      DATABASE_URL: '',
      PAYMENT_PENDING_RECONCILE_AFTER_MS: '0',
      API_RATE_LIMIT_WINDOW_SECONDS: '60',
    });
    expect(parsed).toMatchObject({ TRUST_PROXY: true, SIGN_IN_MAX_FAILURES_PER_IP: 12, PASSWORD_SCRYPT_LOG2_N: 12, API_RATE_LIMIT: 1_000_000_000 });
    expect(parsed).toMatchObject({
      WEBHOOK_ALLOW_PRIVATE_URLS: true,
      WEBHOOK_TIMEOUT_MS: 1500,
      PAYMENT_PENDING_RECONCILE_AFTER_MS: 0,
      API_RATE_LIMIT_WINDOW_SECONDS: 60,
    });
    expect(parsed.DATABASE_URL).toBeUndefined();
    expect(parseConfig({ API_RATE_LIMIT: '1e9' }).API_RATE_LIMIT).toBe(1e9);
    expect(parseConfig({ APP_ENV: 'production', SECRET_KEY: 'x'.repeat(32), PASSWORD_SCRYPT_LOG2_N: '12', ALLOW_SANDBOX_IN_PRODUCTION: 'true' }).APP_ENV).toBe(
      'production',
    );
  });

  it('refuses a bad value with a message naming the variable and what it expects', () => {
    expect(problemsOf({ API_RATE_LIMIT: 'abc' })).toEqual(['API_RATE_LIMIT=abc: expected a whole number of at least 1']);
    expect(problemsOf({ PORT: '70000', RUN_WORKER: 'yes', LOG_LEVEL: 'verbose' })).toEqual([
      'PORT=70000: expected a whole number from 0 to 65535',
      'LOG_LEVEL=verbose: expected one of fatal, error, warn, info, debug, trace, silent',
      'RUN_WORKER=yes: expected true or false',
    ]);
    expect(problemsOf({ APP_ENV: 'prod' })).toEqual(['APP_ENV=prod: expected one of development, production']);
    expect(problemsOf({ WEBHOOK_RETRY_SCHEDULE: '5s,5 minutes' })[0]).toMatch(/^WEBHOOK_RETRY_SCHEDULE=5s,5 minutes: expected comma-separated durations/);
    expect(problemsOf({ WEBHOOK_DISABLE_AFTER: 'soon' })[0]).toMatch(/^WEBHOOK_DISABLE_AFTER=soon: expected a duration/);
    expect(problemsOf({ SUBSCRIPTION_DUNNING_DAYS: '1,three' })[0]).toMatch(/^SUBSCRIPTION_DUNNING_DAYS=1,three: expected comma-separated positive numbers/);
    expect(problemsOf({ SANDBOX_PROCESSOR_LATENCY_MS: '60001' })).toEqual(['SANDBOX_PROCESSOR_LATENCY_MS=60001: expected a whole number from 0 to 60000']);
    expect(problemsOf({ PUBLIC_URL: 'pay.example.com' })).toEqual(['PUBLIC_URL=pay.example.com: expected an http:// or https:// address']);
  });

  it('never repeats a secret value, and requires SECRET_KEY in production', () => {
    const problems = problemsOf({ SECRET_KEY: 'too-short-to-sign-anything' });
    expect(problems).toEqual(['SECRET_KEY (value hidden): must be at least 32 characters']);
    expect(problemsOf({ APP_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' })).toEqual([
      'SECRET_KEY: must be set when APP_ENV=production (it signs tokens and encrypts webhook secrets)',
    ]);
  });

  it('refuses the sandbox in production unless allowed, and Stripe without its keys or with keys of two modes', () => {
    const production = { APP_ENV: 'production', SECRET_KEY: 'x'.repeat(32) };
    expect(problemsOf(production)).toEqual([
      'PAYMENT_PROCESSOR: is the sandbox, which takes no real money: set PAYMENT_PROCESSOR=stripe, or ALLOW_SANDBOX_IN_PRODUCTION=true for a demo install',
    ]);
    expect(problemsOf({ ...production, PAYMENT_PROCESSOR: 'stripe' })).toEqual([
      'STRIPE_SECRET_KEY: must be set when PAYMENT_PROCESSOR=stripe',
      'STRIPE_PUBLISHABLE_KEY: must be set when PAYMENT_PROCESSOR=stripe',
    ]);
    expect(problemsOf({ ...production, PAYMENT_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: 'sk_live_abc123', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123' })).toEqual([
      'STRIPE_PUBLISHABLE_KEY=pk_test_abc123: is a test key but STRIPE_SECRET_KEY is a live key',
    ]);
    expect(problemsOf({ STRIPE_SECRET_KEY: 'pk_test_wrongkind' })).toEqual([
      'STRIPE_SECRET_KEY (value hidden): expected a Stripe secret or restricted key (sk_test_…, sk_live_…, rk_test_…, rk_live_…)',
    ]);
    expect(
      parseConfig({ ...production, PAYMENT_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: 'sk_live_abc123', STRIPE_PUBLISHABLE_KEY: 'pk_live_abc123' }).STRIPE_API_URL,
    ).toBe('https://api.stripe.com');
  });

  it("loads Stripe.js of the release train of the stripe package's API version by default", () => {
    const apiVersion = /ApiVersion = '([^']+)'/.exec(fs.readFileSync('node_modules/stripe/esm/apiVersion.js', 'utf8'))![1]!;
    const train = apiVersion.split('.')[1];
    expect(parseConfig({}).STRIPE_JS_URL).toBe(`https://js.stripe.com/${train}/stripe.js`);
    // The types the pages are written against (@stripe/stripe-js) are of the same train.
    expect(fs.readFileSync('node_modules/@stripe/stripe-js/dist/index.mjs', 'utf8')).toContain(`RELEASE_TRAIN = '${train}'`);
  });

  it('refuses an unknown variable that looks like ours, suggesting the closest one', () => {
    expect(problemsOf({ API_RATE_LIMT: '5' })).toEqual(['API_RATE_LIMT is not a Paybase setting — did you mean API_RATE_LIMIT?']);
    expect(problemsOf({ WEBHOOK_TIMEOUT: '5000', LOG_LEVL: 'warn', database_url: 'postgres://x', PAYBASE_SECRET: 'x' })).toEqual([
      'WEBHOOK_TIMEOUT is not a Paybase setting — did you mean WEBHOOK_TIMEOUT_MS?',
      'LOG_LEVL is not a Paybase setting — did you mean LOG_LEVEL?',
      'database_url is not a Paybase setting — did you mean DATABASE_URL?',
      'PAYBASE_SECRET is not a Paybase setting',
    ]);
    const message = new ConfigError(problemsOf({ TRUST_PROXI: 'true' })).message;
    expect(message).toContain('TRUST_PROXI is not a Paybase setting — did you mean TRUST_PROXY?');
    expect(message).toContain('docs/operations.md');
  });

  it('leaves alone variables that are not ours, and the SDK’s own', () => {
    const env = { PATH: '/usr/bin', HOME: '/root', HOSTNAME: 'box', NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', BENCH_RUNS: '3' };
    expect(() => parseConfig({ ...env, PAYBASE_API_KEY: 'sk_x', PAYBASE_URL: 'http://localhost:3000', PAYBASE_WEBHOOK_SECRET: 'whsec_x' })).not.toThrow();
  });
});

const ROOT = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [relative] : [];
  });
}

describe('one place reads the environment', () => {
  it('no code outside lib/config.ts reads process.env (launchers may pass it on to Next.js and child processes)', () => {
    const files = [...['lib', 'app', 'components', 'scripts'].flatMap(sourceFiles), 'proxy.ts', 'next.config.mjs'];
    const readers = files.flatMap((file) => {
      if (file === path.join('lib', 'config.ts')) return [];
      const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
      return lines
        .map((line, index) => ({ line, at: `${file}:${index + 1}` }))
        .filter(({ line }) => /process\.env/.test(line))
        .filter(({ line }) => !/\{ \.\.\.process\.env, NEXT_TELEMETRY_DISABLED: '1' \}|process\.env\.NEXT_TELEMETRY_DISABLED = '1'/.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`);
    });
    expect(readers).toEqual([]);
  });

  it('documents every variable in docs/operations.md with the schema’s default', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Configuration'), doc.indexOf('\n## ', doc.indexOf('## Configuration') + 1));
    const defaults = parseConfig({}) as Record<string, unknown>;
    const documented: string[] = [];
    for (const row of section.split('\n').filter((line) => line.startsWith('| `'))) {
      const [names, shown] = row
        .split(' | ')
        .slice(0, 2)
        .map((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
      documented.push(...names!);
      // A default column with one literal per variable, e.g. `5` / `50` / `30`; prose otherwise.
      names!.forEach((name, index) => {
        const value = defaults[name];
        if (value === undefined || value === '') return;
        expect(shown, row).toHaveLength(names!.length);
        expect(shown![index], name).toBe(Array.isArray(value) ? value.join(',') : String(value));
      });
    }
    expect([...documented].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });
});

describe('npm start and npm run worker', () => {
  const run = (script: string, env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: path.join(ROOT, '.data-test', 'config-never-used'), ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('stop before starting anything when a variable is bad or misspelt, naming it', () => {
    const started = run('scripts/start.ts', { API_RATE_LIMIT: 'abc', WEBHOOK_TIMOUT_MS: '5000' });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('Invalid configuration (environment variables):');
    expect(started.stderr).toContain('API_RATE_LIMIT=abc: expected a whole number of at least 1');
    expect(started.stderr).toContain('WEBHOOK_TIMOUT_MS is not a Paybase setting — did you mean WEBHOOK_TIMEOUT_MS?');
    expect(started.stderr).not.toMatch(/\n\s+at /);
    expect(started.stdout).not.toContain('Paybase is running');
    expect(fs.existsSync(path.join(ROOT, '.data-test', 'config-never-used'))).toBe(false);

    const worker = run('scripts/worker.ts', { APP_ENV: 'production' });
    expect(worker.status).toBe(1);
    expect(worker.stderr).toContain('SECRET_KEY: must be set when APP_ENV=production');
    // Two processes, each loading its script's whole import graph before the check runs: on a busy machine, well over the default 30 s.
  }, 150_000);
});
