import { apiRoute } from '@/lib/server/http/api-route';
import { getPromotionCodeOperation, updatePromotionCodeOperation } from '@/lib/promotions/api';
import { getPromotionCode, updatePromotionCode } from '@/lib/promotions/promotion-codes';

export const GET = apiRoute(getPromotionCodeOperation, ({ db, merchantId, params }) => getPromotionCode(db, merchantId, params.promotionCodeId));

export const PUT = apiRoute(updatePromotionCodeOperation, ({ db, merchantId, params, body }) =>
  updatePromotionCode(db, merchantId, params.promotionCodeId, body),
);
