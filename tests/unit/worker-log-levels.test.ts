import { describe, expect, it } from 'vitest';
import { graphileLogLevel } from '@/lib/server/jobs/worker';

/** Error level only for what an operator must act on (docs/operations.md, "Health and logs"). */
describe("graphile-worker's log levels", () => {
  const job = (attempts: number) => ({ failure: true, job: { id: '1', task_identifier: 'send-email', attempts, max_attempts: 25 } });

  it('warns of a failed attempt that will be retried, and errs on the last one', () => {
    expect(graphileLogLevel('error', job(1))).toBe('warn');
    expect(graphileLogLevel('error', job(24))).toBe('warn');
    expect(graphileLogLevel('error', job(25))).toBe('error');
  });

  it('keeps every other line at its level', () => {
    expect(graphileLogLevel('error', { error: new Error('worker pool failed') })).toBe('error');
    expect(graphileLogLevel('error', undefined)).toBe('error');
    expect(graphileLogLevel('warning', undefined)).toBe('warn');
    expect(graphileLogLevel('info', {})).toBe('info');
    expect(graphileLogLevel('debug', {})).toBe('debug');
  });
});
