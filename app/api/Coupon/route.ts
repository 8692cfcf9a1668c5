import { apiRoute } from '@/lib/server/http/api-route';
import { createCouponOperation, listCouponsOperation } from '@/lib/promotions/api';
import { createCoupon, listCoupons } from '@/lib/promotions/coupons';

export const GET = apiRoute(listCouponsOperation, ({ db, merchantId, query }) => listCoupons(db, merchantId, query));

export const POST = apiRoute(createCouponOperation, ({ db, merchantId, body }) => createCoupon(db, merchantId, body));
