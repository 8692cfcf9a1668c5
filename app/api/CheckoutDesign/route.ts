import { apiRoute } from '@/lib/server/http/api-route';
import { createCheckoutDesignOperation, listCheckoutDesignsOperation } from '@/lib/designs/api';
import { createCheckoutDesign, listCheckoutDesigns } from '@/lib/designs/designs';

export const GET = apiRoute(listCheckoutDesignsOperation, ({ db, merchantId, query }) => listCheckoutDesigns(db, merchantId, query));

export const POST = apiRoute(createCheckoutDesignOperation, ({ db, merchantId, body }) => createCheckoutDesign(db, merchantId, body));
