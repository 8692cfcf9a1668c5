'use server';

import { getDb } from '@/lib/db/client';
import { payHostedCheckout, quoteHostedPromotion, type HostedPaymentResult, type PromotionQuote } from '@/lib/checkout/hosted';

export async function payAction(token: string, attemptKey: string, formData: FormData): Promise<HostedPaymentResult> {
  const field = (name: string) => String(formData.get(name) ?? '');
  return payHostedCheckout(getDb(), {
    token,
    attemptKey,
    email: field('email'),
    name: field('name'),
    cardNumber: field('cardNumber'),
    expiry: field('expiry'),
    cvc: field('cvc'),
    promotionCode: field('promotionCode'),
    saveCard: formData.get('saveCard') === 'on',
  });
}

export async function applyPromotionAction(token: string, code: string): Promise<PromotionQuote> {
  return quoteHostedPromotion(getDb(), token, code);
}
