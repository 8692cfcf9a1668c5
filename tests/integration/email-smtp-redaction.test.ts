import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '@/lib/db/schema';
import { call } from '../helpers/api';
import { freshIp, uniqueEmail } from '../helpers/sessions';
import { serverPool, serverDatabase } from '../helpers/server-pool';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink';
import { eventually } from '../helpers/webhook-receiver';
import { startServer, type RunningServer } from '../setup/server';

/**
 * Mail sent over SMTP, on a server of its own whose SMTP_URL is a sink that refuses the first
 * message (a mail server down for a moment): the retry still sends the whole mail, and once it
 * is sent the outbox keeps only the redacted body.
 */
let sink: SmtpSink;
let server: RunningServer;
let pool: pg.Pool;

beforeAll(async () => {
  sink = await startSmtpSink({ failFirst: 1 });
  server = await startServer({ env: { SMTP_URL: sink.url } });
  pool = serverPool(server.databaseUrl, 1);
}, 240_000);

afterAll(async () => {
  await pool?.end();
  await server?.stop();
  await sink?.close();
}, 60_000);

describe('the outbox over SMTP', () => {
  it('retries a refused send with the token, then keeps the mail redacted, and the dev mailbox shows no token', async () => {
    const email = uniqueEmail('smtp');
    const sent = await call('POST', '/api/MemberAuth/Login', { body: { email }, headers: freshIp(), baseUrl: server.baseUrl });
    expect(sent.status).toBe(202);

    const db = serverDatabase(pool);
    const row = await eventually(
      async () => {
        const [found] = await db.select().from(schema.outboundEmails).where(eq(schema.outboundEmails.toAddress, email));
        return found?.sentAt ? found : undefined;
      },
      30_000,
      'the mail sent',
    );
    expect(sink.refused).toBe(1);

    // The mail as received carries the working link.
    const received = sink.messages.find((message) => message.includes(email))!;
    const token = /\/member\/verify\?token=(mlt_[A-Za-z0-9_-]+)/.exec(received)![1]!;
    // The outbox no longer can: nothing sealed, the body redacted.
    expect(row.sealedContent).toBeNull();
    expect(row.textBody).toContain('/member/verify?token=[redacted]');
    expect(JSON.stringify(row)).not.toContain(token);

    const mailbox = await call('GET', `/dev/mailbox?format=json&to=${encodeURIComponent(email)}`, { baseUrl: server.baseUrl });
    expect(mailbox.body.data[0]).toMatchObject({ status: 'processed', redacted: true });
    expect(mailbox.text).not.toContain(token);

    const verified = await call('POST', '/api/MemberAuth/Verify', { body: { loginToken: token }, headers: freshIp(), baseUrl: server.baseUrl });
    expect(verified.status, verified.text).toBe(200);
  }, 60_000);
});
