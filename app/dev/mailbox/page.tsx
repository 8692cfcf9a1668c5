import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { config } from '@/lib/config';
import { listDevMailbox } from '@/lib/email/dev-mailbox';
import { EmptyState, PageHeader } from '@/components/ui/layout';

export const metadata: Metadata = { title: 'Dev mailbox', robots: { index: false } };
export const dynamic = 'force-dynamic';

const LINK = /(https?:\/\/[^\s<>"]+)/g;

/** Mail the service sent, for local use without SMTP. Never served in production. */
export default async function DevMailboxPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (config.isProduction) notFound();
  const query = await searchParams;
  const to = typeof query.to === 'string' && query.to.trim() ? query.to.trim() : undefined;
  const emails = await listDevMailbox(getDb(), { to, limit: 50 });
  return (
    <main id="main" className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <PageHeader
        title="Dev mailbox"
        description={
          <>
            The 50 newest emails the service sent{to ? ` to ${to}` : ''}. Only available when <code>APP_ENV</code> is not <code>production</code>. Without{' '}
            <code>SMTP_URL</code> this is their inbox; a mail sent over SMTP shows its sign-in link or code redacted.
          </>
        }
      />
      <search>
        <form action="/dev/mailbox" className="mb-6 flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor="mail-to" className="block text-sm font-medium text-slate-800">
              Recipient
            </label>
            <input
              id="mail-to"
              name="to"
              type="email"
              defaultValue={to}
              className="mt-1 w-72 max-w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
            />
          </div>
          <button type="submit" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50">
            Filter
          </button>
          {to ? (
            <Link href="/dev/mailbox" className="px-2 py-2 text-sm text-brand-700 underline">
              Show all
            </Link>
          ) : null}
        </form>
      </search>
      {emails.length === 0 ? (
        <EmptyState title="No mail yet" />
      ) : (
        <ol className="space-y-4">
          {emails.map((email) => (
            <li key={email.id}>
              <article className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-label={email.subject}>
                <header className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-100 pb-2">
                  <h2 className="font-semibold text-slate-900">{email.subject}</h2>
                  <p className="text-xs text-slate-600">
                    {email.createdAt.toISOString().replace('T', ' ').slice(0, 19)} UTC · {email.category}
                    {email.lastError ? ` · last delivery attempt failed: ${email.lastError}` : email.sentAt ? ' · processed' : ' · queued'}
                    {email.redacted ? ' · link removed from the outbox after sending' : ''}
                  </p>
                </header>
                <p className="mt-2 text-sm text-slate-700">
                  To: <span className="font-mono">{email.toAddress}</span>
                </p>
                <div className="mt-3 text-sm break-words whitespace-pre-wrap text-slate-800">
                  {email.textBody.split(LINK).map((part, index) =>
                    index % 2 === 1 ? (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one split string: a part's position is its identity.
                      <a key={index} href={part} className="text-brand-700 underline">
                        {part}
                      </a>
                    ) : (
                      part
                    ),
                  )}
                </div>
              </article>
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}
