import { apiRoute } from '@/lib/server/http/api-route';
import { summarizeUsageOperation } from '@/lib/usage/api';
import { summarizeUsage } from '@/lib/usage/usage-reports';

export const GET = apiRoute(summarizeUsageOperation, ({ db, merchantId, query }) => summarizeUsage(db, merchantId, query));
