#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { listen, type ForwardedEvent } from './listen.js';

/** `paybase listen --forward-to <url>`: the SDK's command line (docs/webhooks.md, "Local development"). */

const USAGE = `Usage: paybase listen --forward-to <url> [options]

Forwards your Paybase events to a local URL, signed with a secret printed at start.

Options:
  --forward-to <url>   where to POST each event (required), e.g. http://localhost:4000/webhooks
  --api-key <key>      secret API key with webhooks:read (default: $PAYBASE_API_KEY)
  --base-url <url>     the Paybase service (default: $PAYBASE_URL, else http://localhost:3000)
  --events <a,b,…>     forward only these event types (default: all)
  --secret <whsec_…>   sign with this secret instead of a new one
  -h, --help           show this help`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function eventLine(result: ForwardedEvent, forwardTo: string): string {
  const outcome = result.status === undefined ? `failed: ${result.error}` : String(result.status);
  return `${result.createdAt}  ${result.type.padEnd(24)} ${result.eventId}  --> POST ${forwardTo} [${outcome}]`;
}

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        'forward-to': { type: 'string' },
        'api-key': { type: 'string' },
        'base-url': { type: 'string' },
        events: { type: 'string' },
        secret: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseCommandLine();
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals[0] !== 'listen' || positionals.length > 1)
    fail(positionals.length === 0 ? 'Which command? Only `listen` exists.' : `Unknown command: ${positionals.join(' ')}`);
  const forwardTo = values['forward-to'];
  if (!forwardTo) fail('--forward-to is required.');
  if (!URL.canParse(forwardTo)) fail(`--forward-to is not a URL: ${forwardTo}`);
  const apiKey = values['api-key'] ?? process.env.PAYBASE_API_KEY;
  if (!apiKey) fail('An API key is required: --api-key or PAYBASE_API_KEY.');
  const baseUrl = values['base-url'] ?? process.env.PAYBASE_URL ?? 'http://localhost:3000';
  if (!URL.canParse(baseUrl)) fail(`The base URL is not a URL: ${baseUrl}`);
  const events = values.events
    ?.split(',')
    .map((type) => type.trim())
    .filter(Boolean);

  const listener = await listen({
    baseUrl,
    apiKey,
    forwardTo,
    secret: values.secret,
    events,
    onForward: (result) => process.stdout.write(`${eventLine(result, forwardTo)}\n`),
    onPollError: (error) => process.stderr.write(`Could not read events from ${baseUrl}: ${(error as Error).message ?? error}\n`),
  });
  process.stdout.write(
    `Ready. Forwarding ${events?.length ? events.join(', ') : 'all'} events of ${baseUrl} to ${forwardTo}\n` +
      `Your webhook signing secret is ${listener.secret} (verify with it while this listener runs; ^C to quit)\n`,
  );
  const quit = () => void listener.stop().then(() => process.exit(0));
  process.once('SIGINT', quit);
  process.once('SIGTERM', quit);
}

main().catch((error: unknown) => {
  process.stderr.write(`paybase: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
