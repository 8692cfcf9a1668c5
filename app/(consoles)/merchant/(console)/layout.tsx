import type { ReactNode } from 'react';
import { ConsoleShell } from '@/components/console/console-shell';
import type { NavItem } from '@/components/console/nav-links';
import { currentMerchant } from '../session';
import { signOutAction } from '../actions';
import { WebhookBanner } from './webhook-banner';

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
  const merchant = await currentMerchant();
  return (
    <ConsoleShell consoleName="Seller console" home="/merchant" nav={NAV} who={`${merchant.name} · ${merchant.email}`} signOut={signOutAction}>
      <WebhookBanner merchantId={merchant.id} />
      {children}
    </ConsoleShell>
  );
}
