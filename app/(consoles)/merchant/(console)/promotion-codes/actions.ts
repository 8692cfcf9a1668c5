'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { invalidField } from '@/lib/errors';
import { createCoupon } from '@/lib/promotions/coupons';
import { createPromotionCode, updatePromotionCode } from '@/lib/promotions/promotion-codes';
import { CreateCouponBody, CreatePromotionCodeBody } from '@/lib/promotions/schemas';
import { normalizeCurrency } from '@/lib/money/currencies';
import { parseMoney } from '@/lib/money/parse';
import { formatMoney } from '@/lib/money/format';
import { utcMoment, wholeNumber } from '@/lib/server/web/form-inputs';
import { sellerAccountId } from '../../session';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';

const PATH = '/merchant/promotion-codes';

export async function createCouponAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    let discount: Record<string, unknown>;
    if (field(form, 'kind') === 'amount') {
      const currency = normalizeCurrency(field(form, 'currency'));
      if (!currency) throw invalidField('currency', 'Enter a three-letter ISO 4217 code, such as USD or EUR.');
      const amountOff = parseMoney(field(form, 'amountOff'), currency);
      if (!amountOff) throw invalidField('amountOff', `Enter an amount in ${currency} greater than zero, such as 5.00.`);
      discount = { amountOff, currency };
    } else {
      discount = { percentOff: wholeNumber(form, 'percentOff', 'Percent off') };
      if (discount.percentOff === undefined) throw invalidField('percentOff', 'Enter a whole percent from 1 to 100.');
    }
    const duration = field(form, 'duration') || 'once';
    const body = parseForm(CreateCouponBody, {
      ...discount,
      name: field(form, 'name') || undefined,
      duration,
      durationInMonths: duration === 'repeating' ? wholeNumber(form, 'durationInMonths', 'Months') : undefined,
      redeemBy: utcMoment(form, 'redeemBy'),
      maxRedemptions: wholeNumber(form, 'maxRedemptions', 'Maximum redemptions'),
    });
    const coupon = await getDb().transaction((tx) => createCoupon(tx, merchantId, body));
    revalidatePath(PATH);
    const off = coupon.percentOff !== null ? `${coupon.percentOff}% off` : `${formatMoney(coupon.amountOff!, coupon.currency!)} off`;
    return { notice: `Coupon “${coupon.name ?? off}” created. Give it a code customers can type.` };
  });
}

export async function createPromotionCodeAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    const body = parseForm(CreatePromotionCodeBody, {
      couponId: field(form, 'couponId'),
      code: field(form, 'code'),
      expiresAt: utcMoment(form, 'expiresAt'),
      maxRedemptions: wholeNumber(form, 'maxRedemptions', 'Maximum redemptions'),
    });
    const code = await getDb().transaction((tx) => createPromotionCode(tx, merchantId, body));
    revalidatePath(PATH);
    return { notice: `Promotion code ${code.code} created.` };
  });
}

export async function setPromotionCodeActiveAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('catalog:write');
    const active = field(form, 'active') === 'true';
    await getDb().transaction((tx) => updatePromotionCode(tx, merchantId, field(form, 'promotionCodeId'), { active }));
    revalidatePath(PATH);
  });
}
