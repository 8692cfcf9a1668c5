/** Every scope an API key can hold. A `:write` scope implies the matching `:read` scope. */
export const SCOPES = [
  'products:read',
  'products:write',
  'prices:read',
  'prices:write',
  'customers:read',
  'customers:write',
  'entitlements:read',
  'entitlements:write',
  'subscriptions:read',
  'subscriptions:write',
  'payment_links:read',
  'payment_links:write',
  'payments:read',
  'payments:write',
  'refunds:write',
  'disputes:read',
  'disputes:write',
  'webhooks:read',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function hasScope(granted: readonly string[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  const [resource, access] = required.split(':');
  return access === 'read' && granted.includes(`${resource}:write`);
}
