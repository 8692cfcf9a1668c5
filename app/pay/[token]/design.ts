import { cache } from 'react';
import { getDb } from '@/lib/db/client';
import { designForPaymentLink } from '@/lib/payment-links/link-design';

/** Once per request: the layout and the page of /pay/{token} share the lookup. */
export const linkDesign = cache((token: string) => designForPaymentLink(getDb(), token));
