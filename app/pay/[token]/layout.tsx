import type { ReactNode } from 'react';
import { DesignFrame } from '@/components/checkout/design-frame';
import { linkDesign } from './design';

/** The checkout and its success page wear the link's design (or the seller's default). */
export default async function PaymentLinkLayout({ children, params }: { children: ReactNode; params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <DesignFrame design={await linkDesign(token)}>{children}</DesignFrame>;
}
