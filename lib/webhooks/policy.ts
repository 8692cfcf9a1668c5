import { config } from '../config';
import { parseDuration, parseDurationList } from '../durations';

/** ±10 % jitter, so endpoints that failed together do not all retry in the same second. */
const JITTER = 0.1;

export function retrySchedule(): number[] {
  return parseDurationList(config.webhooks.retrySchedule);
}

/** 8 attempts with the default schedule: the first, then one per delay. */
export function maxAutomaticAttempts(): number {
  return retrySchedule().length + 1;
}

/** Delay before the next attempt after `attemptsMade` failed ones, or undefined when the delivery is dead. */
export function nextRetryDelayMs(attemptsMade: number, random: () => number = Math.random): number | undefined {
  const delay = retrySchedule()[attemptsMade - 1];
  if (delay === undefined) return undefined;
  return Math.round(delay * (1 - JITTER + 2 * JITTER * random()));
}

export function disableAfterMs(): number {
  return parseDuration(config.webhooks.disableAfter);
}

/**
 * How long a claimed attempt may take before it counts as cut off by a crash: twice the
 * request timeout plus slack for the database work around it.
 */
export function attemptLeaseMs(): number {
  return config.webhooks.timeoutMs * 2 + 5_000;
}
