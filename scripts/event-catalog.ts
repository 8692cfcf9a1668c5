import { eventCatalogMarkdown } from '../lib/webhooks/event-catalog-markdown';

// Prints the event table and sample bodies of docs/webhooks.md.
process.stdout.write(eventCatalogMarkdown());
