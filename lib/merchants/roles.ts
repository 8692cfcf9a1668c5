import type { SellerRole } from '../db/schema';
import { ApiError } from '../http/errors';
import { formatMoney } from '../money/format';
import type { Permission } from '../http/permissions';

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

export function assertRoleCan(role: SellerRole, permission: Permission): void {
  if (!roleCan(role, permission)) {
    throw new ApiError('FORBIDDEN', `Your role (${ROLE_LABELS[role]}) cannot ${WHAT[permission]}. Ask an Owner or Admin of the account.`);
  }
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
  if (role !== 'Support') return;
  if (!limit) throw new ApiError('FORBIDDEN', 'Support members cannot refund until an Owner or Admin sets a refund limit under Team.');
  if (limit.currency !== refund.currency || refund.amount > limit.amount) {
    throw new ApiError(
      'FORBIDDEN',
      `Support members can refund at most ${formatMoney(limit.amount, limit.currency)} at once. Ask an Owner or Admin for larger refunds.`,
    );
  }
}
