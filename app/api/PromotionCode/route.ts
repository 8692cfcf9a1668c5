import { apiRoute } from '@/lib/server/http/api-route';
import { createPromotionCodeOperation, listPromotionCodesOperation } from '@/lib/promotions/api';
import { createPromotionCode, listPromotionCodes } from '@/lib/promotions/promotion-codes';

export const GET = apiRoute(listPromotionCodesOperation, ({ db, merchantId, query }) => listPromotionCodes(db, merchantId, query));

export const POST = apiRoute(createPromotionCodeOperation, ({ db, merchantId, body }) => createPromotionCode(db, merchantId, body));
