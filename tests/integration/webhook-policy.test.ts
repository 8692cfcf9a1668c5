import { describe, expect, it } from 'vitest';
import { parseDuration, parseDurationList } from '@/lib/durations';
import { maxAutomaticAttempts, nextRetryDelayMs, retrySchedule } from '@/lib/webhooks/policy';
import { decryptSecret, encryptSecret } from '@/lib/secret-box';

describe('retry policy (DESIGN 5)', () => {
  it('defaults to 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts, about 28 hours', () => {
    expect(process.env.WEBHOOK_RETRY_SCHEDULE).toBeUndefined();
    expect(retrySchedule()).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(maxAutomaticAttempts()).toBe(8);
    const total = retrySchedule().reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeCloseTo(27.6, 1);
  });

  it('jitters each delay by at most ±10 % and stops after the last one', () => {
    expect(nextRetryDelayMs(1, () => 0)).toBe(4_500);
    expect(nextRetryDelayMs(1, () => 1)).toBe(5_500);
    expect(nextRetryDelayMs(1, () => 0.5)).toBe(5_000);
    expect(nextRetryDelayMs(7, () => 0.5)).toBe(36_000_000);
    expect(nextRetryDelayMs(8, () => 0.5)).toBeUndefined();
  });

  it('parses durations and refuses nonsense', () => {
    expect(parseDurationList('300ms, 1s,2m,1h,1d')).toEqual([300, 1_000, 120_000, 3_600_000, 86_400_000]);
    expect(parseDuration('1.5s')).toBe(1_500);
    expect(() => parseDuration('5 minutes')).toThrow(/Not a duration/);
    expect(() => parseDuration('-1s')).toThrow();
  });
});

describe('secrets at rest (AES-256-GCM)', () => {
  it('round-trips, uses a fresh nonce each time and is bound to its row', () => {
    const secret = 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
    const sealed = encryptSecret(secret, 'we_1');
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('abcdefghij');
    expect(encryptSecret(secret, 'we_1')).not.toBe(sealed);
    expect(decryptSecret(sealed, 'we_1')).toBe(secret);
    expect(() => decryptSecret(sealed, 'we_2')).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1]! ^= 1;
    expect(() => decryptSecret(`v1:${raw.toString('base64url')}`, 'we_1')).toThrow();
  });
});
