import { apiRoute } from '@/lib/server/http/api-route';
import { getCheckoutOperation } from '@/lib/checkout/api';
import { getCheckout } from '@/lib/checkout/checkout-response';

export const GET = apiRoute(getCheckoutOperation, ({ db, merchantId, params }) => getCheckout(db, merchantId, params.checkoutId));
