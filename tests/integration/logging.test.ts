import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { serializeError } from '@/lib/log';
import { startServer, type RunningServer } from '../setup/server';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ env: { LOG_LEVEL: 'info' } });
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

describe('request logs', () => {
  it('are JSON lines with request id, status and duration, and never contain a secret', async () => {
    const demoKey = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
    const answer = await fetch(`${server.baseUrl}/api/Customer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demoKey}`, 'content-type': 'application/json', 'Idempotency-Key': 'log-test-key' },
      body: JSON.stringify({ email: 'logged@example.com', metadata: { password: 'hunter2' } }),
    });
    const requestId = answer.headers.get('x-request-id')!;
    await fetch(`${server.baseUrl}/api/Product`, { headers: { authorization: 'Bearer sk_leaked_attempt_123' } });

    await expect.poll(() => server.output().includes(requestId)).toBe(true);
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requestLine = lines.find((line) => line.requestId === requestId)!;
    expect(requestLine).toMatchObject({ method: 'POST', path: '/api/Customer', status: 201, msg: 'request' });
    expect(typeof requestLine.durationMs).toBe('number');
    const json = lines.map((line) => JSON.stringify(line)).join('\n');
    expect(json).not.toContain(demoKey);
    expect(json).not.toContain('sk_leaked_attempt_123');
    expect(json).not.toContain('hunter2');
    expect(json).not.toContain('logged@example.com');
  });

  it('include graphile-worker and the webhook dispatcher as JSON lines too, never plain text', async () => {
    await expect.poll(() => server.output().includes('webhook dispatcher started')).toBe(true);
    const logLines = server
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('  ') && line.trim() !== 'Paybase is running');
    const jsonLines = logLines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(jsonLines.some((line) => line.component === 'graphile-worker')).toBe(true);
    expect(jsonLines.some((line) => line.msg === 'webhook dispatcher started')).toBe(true);
    // graphile-worker's own console format, e.g. "[core] INFO: Worker connected…"
    expect(server.output()).not.toMatch(/^\[[^\]]+\] (INFO|WARNING|ERROR|DEBUG): /m);
  });
});

describe('database errors in logs', () => {
  it('carry the statement and the error, never the parameters', async () => {
    const failed: unknown = await getDb()
      .execute(sql`select ${'private-person@example.com'}::int as n, ${'Ada Lovelace'} as name`)
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    const logged = JSON.stringify(serializeError(failed));
    expect(logged).toContain('select $1::int as n, $2 as name');
    expect(logged).toContain('22P02'); // PostgreSQL's code: invalid text representation
    expect(logged).not.toContain('private-person@example.com');
    expect(logged).not.toContain('Ada Lovelace');
  });
});
