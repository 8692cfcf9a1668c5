import Link from 'next/link';

const TABS = [
  { key: 'endpoints', href: '/merchant/webhooks', label: 'Endpoints' },
  { key: 'events', href: '/merchant/webhooks/events', label: 'Event log' },
] as const;

/** The two views of the Webhooks section. */
export function WebhooksTabs({ current }: { current: (typeof TABS)[number]['key'] }) {
  return (
    <nav aria-label="Webhooks views" className="mb-6 border-b border-slate-200">
      <ul className="-mb-px flex gap-4">
        {TABS.map((tab) => (
          <li key={tab.key}>
            <Link
              href={tab.href}
              prefetch={false}
              aria-current={tab.key === current ? 'page' : undefined}
              className={`inline-block border-b-2 px-1 pb-2 text-sm font-medium ${tab.key === current ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-800'}`}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
