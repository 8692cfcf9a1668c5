import { apiRoute } from '@/lib/server/http/api-route';
import { reverseUsageOperation } from '@/lib/usage/api';
import { reverseUsage } from '@/lib/usage/usage-records';

export const POST = apiRoute(reverseUsageOperation, ({ db, merchantId, params }) => reverseUsage(db, merchantId, params.usageId));
