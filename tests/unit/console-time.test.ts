import { describe, expect, it } from 'vitest';
import { formatConsoleDate, formatConsoleDateTime } from '@/lib/server/web/console-time';

describe('console dates in the account time zone', () => {
  const noonUtc = '2026-01-15T12:00:00.000Z';

  it('shows the local time with the zone', () => {
    expect(formatConsoleDateTime(noonUtc, 'UTC')).toBe('2026-01-15 12:00 UTC');
    expect(formatConsoleDateTime(noonUtc, 'America/New_York')).toBe('2026-01-15 07:00 EST');
    expect(formatConsoleDateTime(new Date('2026-07-15T12:00:00Z'), 'America/New_York')).toBe('2026-07-15 08:00 EDT');
    expect(formatConsoleDateTime(noonUtc, 'Asia/Kolkata')).toBe('2026-01-15 17:30 GMT+5:30');
  });

  it('gives the local calendar day, which can differ from the UTC day', () => {
    expect(formatConsoleDate('2026-01-15T23:30:00Z', 'UTC')).toBe('2026-01-15');
    expect(formatConsoleDate('2026-01-15T23:30:00Z', 'Asia/Tokyo')).toBe('2026-01-16');
    expect(formatConsoleDate('2026-01-15T03:00:00Z', 'America/Los_Angeles')).toBe('2026-01-14');
  });

  it('shows a dash for no date', () => {
    expect(formatConsoleDateTime(null, 'UTC')).toBe('—');
    expect(formatConsoleDate(undefined, 'UTC')).toBe('—');
  });
});
