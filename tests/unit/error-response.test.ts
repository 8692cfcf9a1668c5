import { describe, expect, it } from 'vitest';
import { errorResponse } from '../../lib/server/http/route-core';

/** A node-postgres error as drizzle wraps it: the SQLSTATE is on the cause. */
function databaseError(code: string, message: string) {
  return Object.assign(new Error(`Failed query: …`), { cause: Object.assign(new Error(message), { code }) });
}

describe('an error answer', () => {
  it('is 503 with Retry-After when the database rolled the transaction back (deadlock, serialization failure)', async () => {
    for (const [code, message] of [
      ['40P01', 'deadlock detected'],
      ['40001', 'could not serialize access due to concurrent update'],
    ]) {
      const answer = errorResponse(databaseError(code!, message!), 'req_test');
      expect(answer.status).toBe(503);
      expect(answer.headers.get('Retry-After')).toBe('1');
      expect((await answer.json()).code).toBe('SERVICE_UNAVAILABLE');
    }
  });

  it('is 503 when the database cannot be reached, and 500 for a statement that fails on its data', async () => {
    expect(errorResponse(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'req_test').status).toBe(503);
    const internal = errorResponse(databaseError('22021', 'invalid byte sequence'), 'req_test');
    expect(internal.status).toBe(500);
    expect((await internal.json()).code).toBe('INTERNAL');
  });
});
