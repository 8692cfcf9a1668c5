import { gt, asc } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { events } from '@/lib/db/schema';
import { CURRENT_API_VERSION } from '@/lib/http/api-versions';
import { webhookBodyViolations } from '../helpers/contract';
import { newMerchant } from '../helpers/merchants';

/**
 * Runs after every other file of the suite (vitest.config.ts, project `suite-end`): each event
 * the shared server recorded during the run, whatever test made it, is held to the document's
 * `webhooks` entry of its type, as every API answer is held to its operation
 * (tests/helpers/contract.ts). An event whose object drifted from its documented schema fails
 * here even when no test's receiver happened to get it.
 */
const PAGE = 2_000;

it('every event the suite recorded is a webhook body its type documents', async () => {
  // Run alone, the database holds only what this makes: a product and a customer, made over HTTP.
  const { api } = await newMerchant();
  await api.post('/api/Product', { name: 'Suite end' });
  await api.post('/api/Customer', { email: 'suite-end@example.com', name: 'Suite End' });
  const db = getDb();
  const failures: string[] = [];
  const types = new Set<string>();
  let checked = 0;
  let after = '';
  for (;;) {
    const page = await db.select().from(events).where(gt(events.id, after)).orderBy(asc(events.id)).limit(PAGE);
    for (const event of page) {
      const body = {
        id: event.id,
        apiVersion: CURRENT_API_VERSION,
        type: event.type,
        sequence: event.sequence ?? 1,
        createdAt: event.createdAt.toISOString(),
        data: event.data,
      };
      for (const violation of webhookBodyViolations(event.type, body)) if (failures.length < 50) failures.push(`${event.id} ${violation}`);
      types.add(event.type);
      checked++;
    }
    if (page.length < PAGE) break;
    after = page.at(-1)!.id;
  }
  expect(failures, failures.join('\n')).toEqual([]);
  expect(checked).toBeGreaterThan(0);
  console.info(`${checked} recorded events of ${types.size} types hold to their documented schemas`);
});
