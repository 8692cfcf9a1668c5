import type { z } from 'zod';
import { CONFIG_VARIABLES, configSchema, SECRET_VARIABLES, type ConfigVariableName, type ConfigVariables } from './config-schema';

/** Checking an environment against lib/config-schema.ts, naming every bad value and every unknown variable that looks like ours. */

/**
 * Unknown variables that look like ours are refused, so a typo is not silently ignored: any
 * starting with one of these prefixes, and any one edit away from a variable we read.
 */
export const OUR_PREFIXES = [
  'PAYBASE_',
  'API_RATE_LIMIT',
  'DATABASE_',
  'EMBEDDED_POSTGRES_',
  'WEBHOOK_',
  'SANDBOX_',
  'PAYMENT_RECONCILE_',
  'PAYMENT_PENDING_',
  'SUBSCRIPTION_',
  'SIGN_IN_',
  'SIGN_UP_',
  'PASSWORD_',
  'SEED_',
  'DEMO_',
  'ADMIN_',
  'SMTP_',
  'MAIL_',
  'WORKER_',
  'SHUTDOWN_',
  'METRICS_',
  'STRIPE_',
] as const;

/** Read by the SDK and its CLI (packages/sdk) in a seller's backend, not by the service; allowed alongside it. */
const SDK_VARIABLES = new Set(['PAYBASE_API_KEY', 'PAYBASE_URL', 'PAYBASE_WEBHOOK_SECRET']);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Invalid configuration (environment variables):\n${problems.map((problem) => `  - ${problem}`).join('\n')}\nEvery variable is listed in docs/operations.md, "Configuration".`,
    );
    this.name = 'ConfigError';
  }
}

/** Parses an environment (empty values count as unset); throws a ConfigError naming every bad or unknown variable. */
export function parseConfig(env: Record<string, string | undefined>): ConfigVariables {
  const given = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
  const parsed = configSchema.safeParse(given);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => describeIssue(issue, given));
  for (const name of Object.keys(given)) {
    if (isUnknownLookalike(name)) problems.push(describeUnknown(name));
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  return parsed.data;
}

function describeIssue(issue: z.core.$ZodIssue, given: Record<string, string>): string {
  const name = String(issue.path[0]);
  const value = given[name];
  if (value === undefined) return `${name}: ${issue.message}`;
  return `${SECRET_VARIABLES.has(name as ConfigVariableName) ? `${name} (value hidden)` : `${name}=${value}`}: ${issue.message}`;
}

const KNOWN = new Set<string>(CONFIG_VARIABLES);

function isUnknownLookalike(name: string): boolean {
  if (KNOWN.has(name) || SDK_VARIABLES.has(name)) return false;
  const upper = name.toUpperCase();
  return OUR_PREFIXES.some((prefix) => upper.startsWith(prefix)) || CONFIG_VARIABLES.some((known) => known.length >= 6 && editDistance(upper, known) <= 1);
}

function describeUnknown(name: string): string {
  const upper = name.toUpperCase();
  const [nearest] = CONFIG_VARIABLES.map((known) => ({ known, distance: editDistance(upper, known) })).sort((a, b) => a.distance - b.distance);
  const close = nearest && nearest.distance <= Math.max(2, Math.floor(name.length / 3));
  return `${name} is not a Paybase setting${close ? ` — did you mean ${nearest.known}?` : ''}`;
}

/** Insertions, deletions, substitutions and swaps of two neighbours (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i]![j] = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i]![j] = Math.min(rows[i]![j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}
