import { apiRoute } from '@/lib/server/http/api-route';
import { recordUsageBatchOperation } from '@/lib/usage/api';
import { recordUsageBatch } from '@/lib/usage/batch';

export const POST = apiRoute(recordUsageBatchOperation, ({ db, merchantId, body }) => recordUsageBatch(db, merchantId, body));
