import { sessionRoute } from '@/lib/http/session-route';
import { createMerchantApiKeyOperation, listMerchantApiKeysOperation } from '@/lib/auth/api';
import { createMerchantApiKey, listApiKeyPage } from '@/lib/auth/api-keys';

export const GET = sessionRoute(listMerchantApiKeysOperation, ({ db, principal, query }) => listApiKeyPage(db, principal.subjectId, query));

export const POST = sessionRoute(createMerchantApiKeyOperation, ({ db, principal, body }) => createMerchantApiKey(db, principal.subjectId, body));
