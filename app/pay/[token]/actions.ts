'use server';

import { getDb } from '@/lib/db/client';
import { payHostedCheckout, quoteHostedCheckout, type CheckoutQuote, type HostedPaymentResult } from '@/lib/checkout/hosted';
import { customerText } from '@/lib/i18n/customer-text';
import { actionLocale } from '@/lib/server/web/page-locale';

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
      quantity: formData.has('quantity') ? Number(field('quantity')) : undefined,
      saveCard: formData.get('saveCard') === 'on',
      cardVerification: field('cardVerification'),
      billingAddress: {
        line1: field('billingLine1'),
        postalCode: field('billingPostalCode'),
        city: field('billingCity'),
        country: field('billingCountry'),
      },
      taxId: field('taxId'),
    },
    text,
  );
}

/** The totals as the form stands: its promotion code, billing country and chosen quantity. */
export async function quoteAction(token: string, input: { promotionCode: string; country: string; quantity?: number }, locale: string): Promise<CheckoutQuote> {
  return quoteHostedCheckout(getDb(), token, input, customerText(await actionLocale(locale)));
}
