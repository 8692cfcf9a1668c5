import { apiRoute } from '@/lib/server/http/api-route';
import { getCheckoutDesignOperation, updateCheckoutDesignOperation } from '@/lib/designs/api';
import { getCheckoutDesign, updateCheckoutDesign } from '@/lib/designs/designs';

export const GET = apiRoute(getCheckoutDesignOperation, ({ db, merchantId, params }) => getCheckoutDesign(db, merchantId, params.designId));

export const PUT = apiRoute(updateCheckoutDesignOperation, ({ db, merchantId, params, body }) => updateCheckoutDesign(db, merchantId, params.designId, body));
