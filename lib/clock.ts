import { config } from './config';

/**
 * The one source of "now" for domain code, so tests and sandbox test clocks can move time.
 * `CLOCK_OFFSET_MS` shifts the whole process (used by tests that need expiry to happen).
 */
let offsetMs = config.clockOffsetMs;

export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

export function advanceClock(ms: number): void {
  offsetMs += ms;
}

export function resetClock(): void {
  offsetMs = 0;
}
