import { apiRoute } from '@/lib/server/http/api-route';
import { getCouponOperation } from '@/lib/promotions/api';
import { getCoupon } from '@/lib/promotions/coupons';

export const GET = apiRoute(getCouponOperation, ({ db, merchantId, params }) => getCoupon(db, merchantId, params.couponId));
