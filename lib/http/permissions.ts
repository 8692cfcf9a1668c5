/**
 * What a console page or action (or a sign-in API) needs, as session operations and pages name
 * it; each seller role holds a fixed set of them (`lib/merchants/roles.ts`).
 */
export type Permission =
  | 'view'
  | 'catalog:write'
  | 'customers:write'
  | 'subscriptions:write'
  | 'refunds:create'
  | 'disputes:respond'
  | 'developers:read'
  | 'developers:write'
  | 'team:read'
  | 'team:manage'
  | 'settings:write'
  | 'security'
  | 'security:team'
  | 'audit:read';
