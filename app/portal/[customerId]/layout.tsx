import type { ReactNode } from 'react';
import { pageLocale } from '@/lib/server/web/page-locale';
import { portalDesign } from './design';
import { DesignFrame } from '@/components/checkout/design-frame';

/** The customer portal wears the seller's default design and speaks its default locale (else the browser's). */
export default async function PortalLayout({ children, params }: { children: ReactNode; params: Promise<{ customerId: string }> }) {
  const { customerId } = await params;
  const design = await portalDesign(customerId);
  return (
    <DesignFrame design={design} locale={await pageLocale(design?.defaultLocale)}>
      {children}
    </DesignFrame>
  );
}
