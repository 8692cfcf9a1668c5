'use server';

import { getDb } from '@/lib/db/client';
import { payHostedCheckout, quoteHostedPromotion, type HostedPaymentResult, type PromotionQuote } from '@/lib/checkout/hosted';
import { customerText } from '@/lib/i18n/customer-text';
import { actionLocale } from '@/lib/i18n/page-locale';

/** `locale`: the language the page was shown in, so answers (and the customer's emails) use it. */
export async function payAction(token: string, attemptKey: string, locale: string, formData: FormData): Promise<HostedPaymentResult> {
  const field = (name: string) => String(formData.get(name) ?? '');
  const text = customerText(await actionLocale(locale));
  return payHostedCheckout(
    getDb(),
    {
      token,
      attemptKey,
      email: field('email'),
      name: field('name'),
      cardNumber: field('cardNumber'),
      expiry: field('expiry'),
      cvc: field('cvc'),
      paymentMethodToken: field('paymentMethod'),
      promotionCode: field('promotionCode'),
      saveCard: formData.get('saveCard') === 'on',
      cardVerification: field('cardVerification'),
    },
    text,
  );
}

export async function applyPromotionAction(token: string, code: string, locale: string): Promise<PromotionQuote> {
  return quoteHostedPromotion(getDb(), token, code, customerText(await actionLocale(locale)));
}
