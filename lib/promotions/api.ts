import { z } from 'zod';
import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { BooleanQuery, idParam } from '../http/schemas';
import { CouponResponse, CreateCouponBody, CreatePromotionCodeBody, PromotionCodeResponse, UpdatePromotionCodeBody } from './schemas';

const CouponParams = idParam('couponId', 'coupon');
const PromotionCodeParams = idParam('promotionCodeId', 'promo');

// Coupons and promotion codes configure checkout, so they share the payment_links scopes.

export const listCouponsOperation = defineOperation({
  id: 'listCoupons',
  method: 'GET',
  path: '/api/Coupon',
  tag: 'Promotion codes',
  summary: 'List coupons',
  scope: 'payment_links:read',
  query: listQuery(['createdAt']),
  response: pageOf(CouponResponse),
});

export const createCouponOperation = defineOperation({
  id: 'createCoupon',
  method: 'POST',
  path: '/api/Coupon',
  tag: 'Promotion codes',
  summary: 'Create a coupon',
  description:
    'A percent (whole percent, rounded half up once on the subtotal) or fixed amount (in `currency`, capped at the subtotal) off. Customers redeem it through a promotion code.',
  scope: 'payment_links:write',
  body: CreateCouponBody,
  response: CouponResponse,
  successStatus: 201,
  idempotency: 'optional',
});

export const getCouponOperation = defineOperation({
  id: 'getCoupon',
  method: 'GET',
  path: '/api/Coupon/{couponId}',
  tag: 'Promotion codes',
  summary: 'Retrieve a coupon',
  scope: 'payment_links:read',
  params: CouponParams,
  response: CouponResponse,
});

export const listPromotionCodesOperation = defineOperation({
  id: 'listPromotionCodes',
  method: 'GET',
  path: '/api/PromotionCode',
  tag: 'Promotion codes',
  summary: 'List promotion codes',
  scope: 'payment_links:read',
  query: listQuery(['createdAt'], {
    code: z.string().min(1).optional(),
    couponId: z.string().min(1).optional(),
    active: BooleanQuery.optional(),
  }),
  response: pageOf(PromotionCodeResponse),
});

export const createPromotionCodeOperation = defineOperation({
  id: 'createPromotionCode',
  method: 'POST',
  path: '/api/PromotionCode',
  tag: 'Promotion codes',
  summary: 'Create a customer-facing promotion code for a coupon',
  description: 'Codes are unique per merchant regardless of case (409 otherwise).',
  scope: 'payment_links:write',
  body: CreatePromotionCodeBody,
  response: PromotionCodeResponse,
  successStatus: 201,
  idempotency: 'optional',
  answers: { 409: 'CONFLICT: a promotion code with this text exists.' },
});

export const getPromotionCodeOperation = defineOperation({
  id: 'getPromotionCode',
  method: 'GET',
  path: '/api/PromotionCode/{promotionCodeId}',
  tag: 'Promotion codes',
  summary: 'Retrieve a promotion code',
  scope: 'payment_links:read',
  params: PromotionCodeParams,
  response: PromotionCodeResponse,
});

export const updatePromotionCodeOperation = defineOperation({
  id: 'updatePromotionCode',
  method: 'PUT',
  path: '/api/PromotionCode/{promotionCodeId}',
  tag: 'Promotion codes',
  summary: 'Activate or deactivate a promotion code',
  description: 'Only `active` and `metadata` change.',
  scope: 'payment_links:write',
  params: PromotionCodeParams,
  body: UpdatePromotionCodeBody,
  response: PromotionCodeResponse,
});
