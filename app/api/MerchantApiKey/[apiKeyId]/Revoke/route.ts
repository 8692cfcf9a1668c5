import { sessionRoute } from '@/lib/server/http/session-route';
import { revokeMerchantApiKeyOperation } from '@/lib/auth/api';
import { revokeMerchantApiKey } from '@/lib/auth/api-keys';

export const POST = sessionRoute(revokeMerchantApiKeyOperation, ({ db, seller, params }) => revokeMerchantApiKey(db, seller.merchantId, params.apiKeyId));
