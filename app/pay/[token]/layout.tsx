import type { ReactNode } from 'react';
import { DesignFrame } from '@/components/checkout/design-frame';
import { pageLocale } from '@/lib/server/web/page-locale';
import { linkDesign } from './design';

/** The checkout and its success page wear the link's design (or the seller's default). */
export default async function PaymentLinkLayout({ children, params }: { children: ReactNode; params: Promise<{ token: string }> }) {
  const { token } = await params;
  const design = await linkDesign(token);
  return (
    <DesignFrame design={design} locale={await pageLocale(design?.defaultLocale)}>
      {children}
    </DesignFrame>
  );
}
