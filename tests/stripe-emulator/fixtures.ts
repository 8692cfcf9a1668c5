import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Answers are shaped from Stripe's published fixtures (fixtures/fixtures3.subset.json: the
 * resources the emulator serves, taken from openapi/fixtures3.json of github.com/stripe/openapi,
 * MIT licence in fixtures/LICENSE): a copy of the fixture with the emulator's state laid over it.
 */
type Fixture = Record<string, unknown>;
const resources = (
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'fixtures/fixtures3.subset.json'), 'utf8')) as {
    resources: Record<string, Fixture>;
  }
).resources;

export type StripeObject = Record<string, unknown> & { id: string; object: string };

export function fromFixture(resource: string, own: Record<string, unknown>): StripeObject {
  const fixture = resources[resource];
  if (!fixture) throw new Error(`No Stripe fixture for ${resource}`);
  return { ...structuredClone(fixture), ...own } as StripeObject;
}

/** Stripe-like ids: a prefix and 24 random characters. */
export function stripeId(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24)}`;
}

export const unixNow = () => Math.floor(Date.now() / 1000);
