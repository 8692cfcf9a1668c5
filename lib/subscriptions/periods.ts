import { addDays, addMonths, addWeeks, addYears } from 'date-fns';
import { UTCDate } from '@date-fns/utc';
import type { PriceInterval } from '../catalog/schemas';

export interface BillingCycle {
  /** The instant billing started; every period boundary is computed from it, never from the previous boundary. */
  anchor: Date;
  interval: PriceInterval;
  intervalCount: number;
}

const ADD: Record<PriceInterval, (date: Date, amount: number) => Date> = {
  day: addDays,
  week: addWeeks,
  month: addMonths,
  year: addYears,
};

/**
 * The start of period `index` (0 = the first). Computed from the anchor so month-end clamping
 * does not drift: an anchor of Jan 31 renews Feb 28 (29 in leap years), Mar 31, Apr 30…
 * All arithmetic is in UTC.
 */
export function periodBoundary(cycle: BillingCycle, index: number): Date {
  return new Date(ADD[cycle.interval](new UTCDate(cycle.anchor), cycle.intervalCount * index).getTime());
}

export interface Period {
  index: number;
  start: Date;
  end: Date;
}

/** The period containing `at` (start inclusive, end exclusive); `at` before the anchor is period 0. */
export function periodAt(cycle: BillingCycle, at: Date): Period {
  let index = Math.max(0, estimateIndex(cycle, at));
  while (index > 0 && periodBoundary(cycle, index) > at) index--;
  while (periodBoundary(cycle, index + 1) <= at) index++;
  return { index, start: periodBoundary(cycle, index), end: periodBoundary(cycle, index + 1) };
}

const APPROXIMATE_MS: Record<PriceInterval, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30.436875 * 86_400_000,
  year: 365.2425 * 86_400_000,
};

// A close first guess keeps periodAt O(1) for long-running subscriptions; the loops correct it.
function estimateIndex(cycle: BillingCycle, at: Date): number {
  return Math.floor((at.getTime() - cycle.anchor.getTime()) / (APPROXIMATE_MS[cycle.interval] * cycle.intervalCount));
}
