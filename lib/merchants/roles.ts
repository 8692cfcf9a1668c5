import type { SellerRole } from '../db/schema';
import { ApiError } from '../errors';
import { formatMoney } from '../money/format';
import type { Permission } from '../http/permissions';
import { SCOPES, type Scope } from '../http/scopes';

export const SELLER_ROLES = ['Owner', 'Admin', 'Developer', 'Support', 'ReadOnly'] as const satisfies readonly SellerRole[];

export const ROLE_LABELS: Record<SellerRole, string> = {
  Owner: 'Owner',
  Admin: 'Admin',
  Developer: 'Developer',
  Support: 'Support',
  ReadOnly: 'Read-only',
};

export const ROLE_DESCRIPTIONS: Record<SellerRole, string> = {
  Owner: 'Everything, including other Owners and requiring two-factor for the team.',
  Admin: 'Everything except managing Owners.',
  Developer: 'API keys, webhooks and event logs; reads everything else.',
  Support: 'Customers, payments and refunds up to the account limit; no API keys or webhooks.',
  ReadOnly: 'Reads everything, changes nothing.',
};

const EVERYTHING: readonly Permission[] = [
  'view',
  'catalog:write',
  'customers:write',
  'subscriptions:write',
  'refunds:create',
  'disputes:respond',
  'developers:read',
  'developers:write',
  'team:read',
  'team:manage',
  'settings:write',
  'security',
  'security:team',
  'audit:read',
];

const PERMISSIONS: Record<SellerRole, readonly Permission[]> = {
  Owner: EVERYTHING,
  Admin: EVERYTHING.filter((permission) => permission !== 'security:team'),
  Developer: ['view', 'developers:read', 'developers:write', 'team:read', 'security'],
  Support: ['view', 'customers:write', 'refunds:create', 'team:read', 'security'],
  ReadOnly: ['view', 'developers:read', 'team:read', 'security', 'audit:read'],
};

const WHAT: Record<Permission, string> = {
  view: 'open the console',
  'catalog:write': 'change products, prices, payment links or promotion codes',
  'customers:write': 'change customers',
  'subscriptions:write': 'change subscriptions',
  'refunds:create': 'refund payments',
  'disputes:respond': 'respond to disputes',
  'developers:read': 'see API keys, webhooks and event logs',
  'developers:write': 'manage API keys and webhooks',
  'team:read': 'see the team',
  'team:manage': 'manage the team',
  'settings:write': 'change account settings',
  security: 'manage your own sign-in security',
  'security:team': 'require two-factor sign-in for the team',
  'audit:read': "read the account's audit log",
};

export function roleCan(role: SellerRole, permission: Permission): boolean {
  return PERMISSIONS[role].includes(permission);
}

/** Why the role may not do what `permission` allows, in words ("Your role (Developer) cannot …"); null when it may. */
export function roleRefusal(role: SellerRole, permission: Permission): string | null {
  return roleCan(role, permission) ? null : `Your role (${ROLE_LABELS[role]}) cannot ${WHAT[permission]}. Ask an Owner or Admin of the account.`;
}

export function assertRoleCan(role: SellerRole, permission: Permission): void {
  const refusal = roleRefusal(role, permission);
  if (refusal) throw new ApiError('FORBIDDEN', refusal);
}

/**
 * The console permission each developer-API scope stands for: a key may carry a scope only when
 * its creator's role holds that permission (checked when the key is made and on every request
 * with it). Reads need only `view`, except webhook logs (`developers:read`); writes need the
 * permission that makes the same change in the console. Usage, credits and entitlements decide
 * what a subscription bills, so they are `subscriptions:write`; saved cards belong to the
 * customer (`customers:write`); Checkout and payment-link completion charge cards for a price
 * the catalog sets (`catalog:write`, like payment links). Evidence answers a dispute for the
 * whole account, so only Owners and Admins send it (`disputes:respond`).
 */
const SCOPE_PERMISSION: Record<Scope, Permission> = {
  'products:read': 'view',
  'products:write': 'catalog:write',
  'prices:read': 'view',
  'prices:write': 'catalog:write',
  'customers:read': 'view',
  'customers:write': 'customers:write',
  'entitlements:read': 'view',
  'entitlements:write': 'subscriptions:write',
  'subscriptions:read': 'view',
  'subscriptions:write': 'subscriptions:write',
  'payment_links:read': 'view',
  'payment_links:write': 'catalog:write',
  'payments:read': 'view',
  'payments:write': 'customers:write',
  'refunds:write': 'refunds:create',
  'disputes:read': 'view',
  'disputes:write': 'disputes:respond',
  'webhooks:read': 'developers:read',
  'webhooks:write': 'developers:write',
};

/** Roles whose refunds are capped per refund (the account's Support limit); a key carries no cap. */
const CAPPED_REFUND_ROLES: readonly SellerRole[] = ['Support'];

/** Whether a key made (or used) under this role may carry the scope. */
export function roleAllowsScope(role: SellerRole, scope: Scope): boolean {
  if (!roleCan(role, SCOPE_PERMISSION[scope])) return false;
  return !(scope === 'refunds:write' && CAPPED_REFUND_ROLES.includes(role));
}

/** Every scope a key made by this role may carry, in the order of SCOPES. */
export function scopesAllowedFor(role: SellerRole): Scope[] {
  return SCOPES.filter((scope) => roleAllowsScope(role, scope));
}

/**
 * Refuses a key whose scopes go beyond its creator's role: 403 INSUFFICIENT_SCOPE naming each
 * scope refused (in the detail, in `scopes`, and on the `scopes` field), so nobody can give a key
 * more than they may do themselves.
 */
export function assertRoleMayGrantScopes(role: SellerRole, scopes: readonly Scope[]): void {
  const refused = scopes.filter((scope) => !roleAllowsScope(role, scope));
  if (refused.length === 0) return;
  throw new ApiError(
    'INSUFFICIENT_SCOPE',
    `Your role (${ROLE_LABELS[role]}) cannot give an API key ${refused.map((scope) => `'${scope}'`).join(', ')}: a key can do only what its creator may do. Ask an Owner or Admin to create it.`,
    {
      errors: [{ path: 'scopes', message: `Your role cannot give ${refused.join(', ')}.` }],
      extra: { scopes: refused },
    },
  );
}

/** The most a Support member may refund at once; null when the account set none (Support cannot refund). */
export interface SupportRefundLimit {
  amount: number;
  currency: string;
}

/**
 * A refund's amount against the role: Owners, Admins refund any amount; Support up to the
 * account's limit, in the limit's currency only; other roles not at all.
 */
export function assertCanRefund(role: SellerRole, limit: SupportRefundLimit | null, refund: { amount: number; currency: string }): void {
  assertRoleCan(role, 'refunds:create');
  if (!CAPPED_REFUND_ROLES.includes(role)) return;
  if (!limit) throw new ApiError('FORBIDDEN', 'Support members cannot refund until an Owner or Admin sets a refund limit under Team.');
  if (limit.currency !== refund.currency || refund.amount > limit.amount) {
    throw new ApiError(
      'FORBIDDEN',
      `Support members can refund at most ${formatMoney(limit.amount, limit.currency)} at once. Ask an Owner or Admin for larger refunds.`,
    );
  }
}
