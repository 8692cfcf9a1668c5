import { ADDED_EVENT_TYPES, EVENT_TYPES } from '../events/types';
import { EVENT_SAMPLES } from './samples';
import { CURRENT_API_VERSION } from '../http/api-versions';

const SAMPLE_EVENT_ID = 'evt_01KEXAMPLE0EVENT000000000';
const SAMPLE_TIME = '2026-01-15T10:00:00.000Z';

/**
 * The "Events and the operations that emit them" section of docs/webhooks.md, made from
 * EVENT_SAMPLES so the page cannot drift from what is sent (tests/unit/event-catalog.test.ts
 * compares them; `npx tsx scripts/event-catalog.ts` prints it).
 */
export function eventCatalogMarkdown(): string {
  const added = new Set<string>(ADDED_EVENT_TYPES);
  const rows = EVENT_TYPES.map((type) => `| \`${type}\` | ${EVENT_SAMPLES[type].emittedBy} | ${added.has(type) ? 'added (not in the spec table)' : 'spec'} |`);
  const samples = EVENT_TYPES.map((type) => {
    const body = { id: SAMPLE_EVENT_ID, apiVersion: CURRENT_API_VERSION, type, sequence: 42, createdAt: SAMPLE_TIME, data: EVENT_SAMPLES[type].data };
    return `\`${type}\`:\n\n\`\`\`json\n${JSON.stringify(body, null, 2)}\n\`\`\``;
  });
  return ['| Event | Emitted by | In the spec |', '|---|---|---|', ...rows, '', '### Sample bodies', '', samples.join('\n\n'), ''].join('\n');
}
