import type { Db } from '../db/client';
import { customerFeatures } from './entitlement-view';
import { entitlementFor, resolveEntitlements, type MeteringPeriod } from './resolve';
import { summarizeUsage } from './usage-reports';

const DAY_MS = 86_400_000;
/** A feature whose usage never resets is charted over its last 30 days against the 30 before. */
const LIFETIME_WINDOW_DAYS = 30;

const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/** The window charted for a period: the period itself, and as many days just before it. */
function chartWindow(period: MeteringPeriod, at: Date) {
  const end = period.start && period.end ? period.end.getTime() : startOfDay(at.getTime()) + DAY_MS;
  const start = period.start && period.end ? period.start.getTime() : end - LIFETIME_WINDOW_DAYS * DAY_MS;
  return { start, end, previousStart: start - (end - start) };
}

async function unitsByDay(db: Db, merchantId: string, customerId: string, feature: string, from: number, to: number) {
  const summary = await summarizeUsage(db, merchantId, { customerId, feature, from: new Date(from), to: new Date(to), groupBy: 'day' });
  return new Map(summary.data.map((row) => [row.key, row.quantity]));
}

/**
 * Each of a customer's features (those `getCustomerEntitlements` lists) with its units per UTC
 * day over the current period and the period before it (the same length, just before), lined up
 * day for day: `days[i]` and `previousDays[i]` are the i-th day of each. `current` stops at the
 * customer's today (their test clock's, if any); reversed records are left out.
 */
export async function getCustomerUsageHistory(db: Db, merchantId: string, customerId: string) {
  const resolved = await resolveEntitlements(db, merchantId, customerId);
  const today = dayKey(resolved.at.getTime());
  const data = [];
  for (const feature of await customerFeatures(db, merchantId, resolved)) {
    const { period } = entitlementFor(resolved, feature);
    const window = chartWindow(period, resolved.at);
    const [current, previous] = await Promise.all([
      unitsByDay(db, merchantId, customerId, feature, window.start, window.end),
      unitsByDay(db, merchantId, customerId, feature, window.previousStart, window.start),
    ]);
    const days: string[] = [];
    for (let ms = startOfDay(window.start); ms < window.end; ms += DAY_MS) days.push(dayKey(ms));
    const previousDays = days.map((_, i) => dayKey(startOfDay(window.previousStart) + i * DAY_MS));
    data.push({
      feature,
      resets: period.start !== null && period.end !== null,
      start: new Date(window.start).toISOString(),
      end: new Date(window.end).toISOString(),
      previousStart: new Date(window.previousStart).toISOString(),
      days,
      previousDays,
      current: days.filter((day) => day <= today).map((day) => current.get(day) ?? 0),
      previous: previousDays.map((day) => previous.get(day) ?? 0),
    });
  }
  return { customerId, data };
}

export type FeatureUsageHistory = Awaited<ReturnType<typeof getCustomerUsageHistory>>['data'][number];
