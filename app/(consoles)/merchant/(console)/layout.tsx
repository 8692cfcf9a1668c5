import type { ReactNode } from 'react';
import { ConsoleShell } from '@/components/console/console-shell';
import type { NavItem } from '@/components/console/nav-links';
import { ROLE_LABELS, roleCan } from '@/lib/merchants/roles';
import type { Permission } from '@/lib/http/permissions';
import { currentSeller } from '../session';
import { signOutAction } from '../actions';
import { WebhookBanner } from './webhook-banner';
import { SearchBox } from '@/components/console/search/search-box';
import { VerifyEmailBanner } from './verify-email-banner';

// Each entry names what its page needs, so nobody is shown a link to a page their role cannot open.
const NAV: (NavItem & { needs: Permission })[] = [
  { href: '/merchant', label: 'Overview', needs: 'view' },
  { href: '/merchant/products', label: 'Products', group: 'Catalog', needs: 'view' },
  { href: '/merchant/customers', label: 'Customers', needs: 'view' },
  { href: '/merchant/payments', label: 'Payments', group: 'Money', needs: 'view' },
  { href: '/merchant/disputes', label: 'Disputes', needs: 'view' },
  { href: '/merchant/payment-links', label: 'Payment links', needs: 'view' },
  { href: '/merchant/promotion-codes', label: 'Promotion codes', needs: 'view' },
  { href: '/merchant/tax-rates', label: 'Tax rates', needs: 'view' },
  { href: '/merchant/subscriptions', label: 'Subscriptions', needs: 'view' },
  { href: '/merchant/usage', label: 'Usage', needs: 'view' },
  { href: '/merchant/developers/api-keys', label: 'API keys', group: 'Developers', needs: 'developers:read' },
  { href: '/merchant/webhooks', label: 'Webhooks', needs: 'developers:read' },
  { href: '/merchant/developers/logs', label: 'Logs', needs: 'developers:read' },
  { href: '/merchant/team', label: 'Team', group: 'Account', needs: 'team:read' },
  { href: '/merchant/settings', label: 'Settings', needs: 'view' },
  { href: '/merchant/settings/audit-log', label: 'Audit log', needs: 'audit:read' },
  { href: '/merchant/security', label: 'Security', needs: 'security' },
];

export default async function MerchantConsoleLayout({ children }: { children: ReactNode }) {
  // The frame only needs a signed-in member ('security' is open even before a required two-factor setup).
  const { merchant, user } = await currentSeller('security');
  const nav = NAV.filter((item) => roleCan(user.role, item.needs)).map(({ needs: _needs, ...item }) => item);
  return (
    <ConsoleShell
      consoleName="Seller console"
      home="/merchant"
      nav={nav}
      who={`${user.name} (${ROLE_LABELS[user.role]}) · ${merchant.name}`}
      signOut={signOutAction}
      search={<SearchBox action="/merchant/search" />}
    >
      {user.emailVerifiedAt ? null : <VerifyEmailBanner email={user.email} />}
      {roleCan(user.role, 'developers:read') ? <WebhookBanner merchantId={merchant.id} timeZone={merchant.timeZone} /> : null}
      {children}
    </ConsoleShell>
  );
}
