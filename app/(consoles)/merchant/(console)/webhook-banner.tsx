import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listWebhookEndpointsNeedingAttention } from '@/lib/webhooks/endpoints';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';

/**
 * The console-wide notice that a webhook endpoint is failing or was disabled by the service
 * (410 Gone, or 5 days of failures), on every page until it is fixed, enabled or deleted.
 */
export async function WebhookBanner({ merchantId, timeZone }: { merchantId: string; timeZone: string }) {
  const { endpoints, hasMore } = await listWebhookEndpointsNeedingAttention(getDb(), merchantId, 3);
  if (endpoints.length === 0) return null;
  const disabled = endpoints.some((endpoint) => endpoint.status === 'disabled');
  const tone = disabled ? 'border-red-300 bg-red-50 text-red-900' : 'border-amber-300 bg-amber-50 text-amber-900';
  return (
    <section aria-label="Webhook endpoints need attention" data-testid="webhook-banner" className={`mb-6 rounded-md border px-4 py-3 text-sm ${tone}`}>
      <p className="font-semibold">
        {disabled ? 'A webhook endpoint was disabled' : 'A webhook endpoint is failing'}
        {endpoints.length > 1 ? ' (and others need attention)' : ''}
      </p>
      <ul className="mt-1 space-y-1">
        {endpoints.map((endpoint) => (
          <li key={endpoint.id}>
            <Link href={`/merchant/webhooks/${endpoint.id}`} prefetch={false} className="font-medium break-all underline">
              {endpoint.url}
            </Link>{' '}
            {endpoint.status === 'failing'
              ? `has failed every attempt since ${formatConsoleDateTime(endpoint.failingSince, timeZone)}; it is disabled after 5 days of failures.`
              : endpoint.disabledReason === 'gone'
                ? `was disabled on ${formatConsoleDateTime(endpoint.disabledAt, timeZone)}: it answered 410 Gone. Events are not sent to it.`
                : `was disabled on ${formatConsoleDateTime(endpoint.disabledAt, timeZone)} after failing for 5 days. Events are not sent to it.`}
          </li>
        ))}
      </ul>
      {hasMore ? (
        <p className="mt-1">
          <Link href="/merchant/webhooks" prefetch={false} className="underline">
            See all endpoints
          </Link>
        </p>
      ) : null}
    </section>
  );
}
