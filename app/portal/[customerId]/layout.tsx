import type { ReactNode } from 'react';
import { getDb } from '@/lib/db/client';
import { designForCustomer } from '@/lib/designs/hosted-design';
import { DesignFrame } from '@/components/checkout/design-frame';

/** The customer portal wears the seller's default design. */
export default async function PortalLayout({ children, params }: { children: ReactNode; params: Promise<{ customerId: string }> }) {
  const { customerId } = await params;
  return <DesignFrame design={await designForCustomer(getDb(), customerId)}>{children}</DesignFrame>;
}
