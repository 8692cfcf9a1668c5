import { getDb } from '@/lib/db/client';
import { config } from '@/lib/config';
import { listDevMailbox } from '@/lib/email/dev-mailbox';

export const dynamic = 'force-dynamic';

const LINK = /https?:\/\/[^\s<>"]+/g;

/**
 * The dev mailbox as JSON (reached as `/dev/mailbox?format=json&to=…`): the 50 newest emails,
 * newest first, with the links of each text body, so local scripts and tests can follow a
 * sign-in link without scraping HTML. A mail sent over SMTP has its token redacted (`redacted`).
 * Never served in production.
 */
export async function GET(request: Request) {
  if (config.isProduction) return new Response('Not found', { status: 404 });
  const to = new URL(request.url).searchParams.get('to')?.trim() || undefined;
  const emails = await listDevMailbox(getDb(), { to, limit: 50 });
  const data = emails.map((email) => ({
    id: email.id,
    to: email.toAddress,
    subject: email.subject,
    category: email.category,
    text: email.textBody,
    links: email.textBody.match(LINK) ?? [],
    status: email.lastError ? 'failed' : email.sentAt ? 'processed' : 'queued',
    redacted: email.redacted,
    createdAt: email.createdAt.toISOString(),
  }));
  return Response.json({ data }, { headers: { 'Cache-Control': 'no-store' } });
}
