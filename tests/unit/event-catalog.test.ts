import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventCatalogMarkdown } from '@/lib/webhooks/event-catalog-markdown';
import { EVENT_TYPES } from '@/lib/events/types';

describe('docs/webhooks.md event catalog', () => {
  it('lists every event type with its emitter and sample body, exactly as the code sends them', () => {
    const doc = fs.readFileSync('docs/webhooks.md', 'utf8');
    expect(doc).toContain(eventCatalogMarkdown());
    for (const type of EVENT_TYPES) expect(doc).toContain(`| \`${type}\` |`);
  });
});
