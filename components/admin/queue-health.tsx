import Link from 'next/link';
import { Badge } from '@/components/ui/layout';
import type { PlatformOverview, QueueDepth } from '@/lib/operator/platform-overview';

/** `3 min`, `2 h 5 min`: how long the oldest waiting item has waited. */
export function formatAge(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

function Figure({ label, value, tone }: { label: string; value: string | number; tone?: 'warn' }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className={`text-xl font-semibold tabular-nums ${tone === 'warn' ? 'text-amber-700' : 'text-slate-900'}`}>{value}</dd>
    </div>
  );
}

function QueueFigures({ queue, failedLabel }: { queue: QueueDepth; failedLabel?: string }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      <Figure label="Due now" value={queue.due} tone={queue.due > 0 && queue.oldestDueSeconds > 300 ? 'warn' : undefined} />
      <Figure label="Oldest due waiting" value={queue.due ? formatAge(queue.oldestDueSeconds) : '—'} tone={queue.oldestDueSeconds > 300 ? 'warn' : undefined} />
      <Figure label="Running now" value={queue.running} />
      <Figure label="Scheduled later" value={queue.scheduled} />
      {failedLabel ? <Figure label={failedLabel} value={queue.failed} tone={queue.failed > 0 ? 'warn' : undefined} /> : null}
    </dl>
  );
}

/** The two queues (graphile-worker's jobs and the webhook deliveries table) and the reconciliation backlog. */
export function QueueHealth({ overview }: { overview: PlatformOverview }) {
  const { jobQueue, webhookQueue, reconciliation } = overview;
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
      <section aria-label="Job queue" className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 className="mb-3 text-sm font-medium text-slate-600">Job queue (graphile-worker)</h2>
        <QueueFigures queue={jobQueue} failedLabel="Out of attempts" />
        {jobQueue.byTask.length ? (
          <ul className="mt-3 space-y-1 text-xs text-slate-700">
            {jobQueue.byTask.map((task) => (
              <li key={task.task} className="flex flex-wrap gap-x-2">
                <span className="font-mono">{task.task}</span>
                <span>
                  {task.due} due, {task.running} running{task.failed ? `, ${task.failed} out of attempts` : ''}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <section aria-label="Webhook delivery queue" className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 className="mb-3 text-sm font-medium text-slate-600">Webhook delivery queue</h2>
        <QueueFigures queue={webhookQueue} />
        <p className="mt-3 text-xs text-slate-600">Deliveries due to send and leased by a dispatcher (the deliveries table is the queue).</p>
      </section>
      <section aria-label="Reconciliation backlog" className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 className="mb-3 text-sm font-medium text-slate-600">Reconciliation backlog</h2>
        <dl className="grid grid-cols-2 gap-3">
          <Figure label="Payments in unknown" value={reconciliation.unknown} tone={reconciliation.unknown > 0 ? 'warn' : undefined} />
          <Figure label="Oldest unknown" value={reconciliation.unknown ? formatAge(reconciliation.oldestSeconds) : '—'} />
        </dl>
        <p className="mt-3 text-xs text-slate-600">
          {reconciliation.unknown ? <Badge tone="gray">settled by the reconciliation job</Badge> : 'Nothing waits for the processor.'}
        </p>
        {reconciliation.needsReview ? (
          <p className="mt-3 text-sm font-medium text-amber-800">
            <Link href="/admin/payments" className="underline">
              {reconciliation.needsReview === 1 ? '1 payment needs review' : `${reconciliation.needsReview} payments need review`}
            </Link>{' '}
            by a person: recovery gave up on {reconciliation.needsReview === 1 ? 'it' : 'them'}.
          </p>
        ) : null}
      </section>
    </div>
  );
}
