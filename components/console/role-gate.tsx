import type { ReactNode } from 'react';
import type { Permission } from '@/lib/http/permissions';
import { roleRefusal, type SELLER_ROLES } from '@/lib/merchants/roles';

/**
 * A form the role may use, or in its place why it may not ("Your role (Developer) cannot change
 * customers. …"). Only what the page shows: the form's server action checks the role again.
 */
export function RoleGate({ role, permission, children }: { role: (typeof SELLER_ROLES)[number]; permission: Permission; children: ReactNode }) {
  return roleRefusal(role, permission) ? <RoleRefusal role={role} permission={permission} /> : children;
}

/** Why the role may not do what `permission` allows, where a page has no single form to put in its place; nothing when it may. */
export function RoleRefusal({ role, permission }: { role: (typeof SELLER_ROLES)[number]; permission: Permission }) {
  const refusal = roleRefusal(role, permission);
  if (!refusal) return null;
  return (
    <p className="text-sm text-slate-600" data-testid="role-refusal">
      {refusal}
    </p>
  );
}
