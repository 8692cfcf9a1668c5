import { sessionRoute } from '@/lib/server/http/session-route';
import { suspendMerchantOperation } from '@/lib/auth/api';
import { suspendMerchant } from '@/lib/operator/suspension';

export const POST = sessionRoute(suspendMerchantOperation, ({ db, params, body }) => suspendMerchant(db, params.merchantId, body));
