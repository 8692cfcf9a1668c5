import { cache } from 'react';
import { getDb } from '@/lib/db/client';
import { designForCustomer } from '@/lib/designs/hosted-design';

/** Once per request: the portal's layout and pages share the seller's default design. */
export const portalDesign = cache((customerId: string) => designForCustomer(getDb(), customerId));
