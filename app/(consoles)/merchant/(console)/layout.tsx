import type { ReactNode } from 'react';
import { ConsoleShell } from '@/components/console/console-shell';
import type { NavItem } from '@/components/console/nav-links';
import { currentSeller } from '../session';
import { signOutAction } from '../actions';
import { WebhookBanner } from './webhook-banner';
import { VerifyEmailBanner } from './verify-email-banner';

const NAV: NavItem[] = [
  { href: '/merchant', label: 'Overview' },
  { href: '/merchant/products', label: 'Products', group: 'Catalog' },
  { href: '/merchant/customers', label: 'Customers' },
  { href: '/merchant/payments', label: 'Payments', group: 'Money' },
  { href: '/merchant/payment-links', label: 'Payment links' },
  { href: '/merchant/promotion-codes', label: 'Promotion codes' },
  { href: '/merchant/subscriptions', label: 'Subscriptions' },
  { href: '/merchant/developers/api-keys', label: 'API keys', group: 'Developers' },
  { href: '/merchant/webhooks', label: 'Webhooks' },
];

export default async function MerchantConsoleLayout({ children }: { children: ReactNode }) {
  const { merchant, user } = await currentSeller();
  return (
    <ConsoleShell consoleName="Seller console" home="/merchant" nav={NAV} who={`${user.name} · ${merchant.name}`} signOut={signOutAction}>
      {user.emailVerifiedAt ? null : <VerifyEmailBanner email={user.email} />}
      <WebhookBanner merchantId={merchant.id} />
      {children}
    </ConsoleShell>
  );
}
