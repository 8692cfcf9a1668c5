import { sessionRoute } from '@/lib/server/http/session-route';
import { createMerchantApiKeyOperation, listMerchantApiKeysOperation } from '@/lib/auth/api';
import { createMerchantApiKey, listApiKeyPage } from '@/lib/auth/api-keys';

export const GET = sessionRoute(listMerchantApiKeysOperation, ({ db, seller, query }) => listApiKeyPage(db, seller.merchantId, query));

export const POST = sessionRoute(createMerchantApiKeyOperation, ({ db, seller, body }) => createMerchantApiKey(db, seller, body));
