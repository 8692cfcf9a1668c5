import { currencyExponent } from '../../money/currencies';

/**
 * Our minor units (ISO 4217 exponents, lib/money) in Stripe's, and back
 * (docs.stripe.com/currencies, "Special cases"; docs/processors.md, "Amounts"):
 * - ISK: ISO and Paybase count whole krónur (exponent 0); Stripe's API still counts hundredths,
 *   and takes only whole krónur: our 500 is Stripe's 50000.
 * - HUF, TWD: two decimals in both (Stripe pays them out in whole units only, which is not a charge's concern).
 * - UGX and the other zero-decimal currencies: zero in both.
 * - BHD, JOD, KWD, OMR, TND: three decimals in both, but Stripe takes only amounts whose last digit is 0.
 */
const STRIPE_HUNDREDTHS_OF_WHOLE_UNITS = new Set(['ISK']);

export class UnsupportedStripeAmount extends Error {}

export function toStripeAmount(amount: number, currency: string): number {
  const code = currency.toUpperCase();
  if (STRIPE_HUNDREDTHS_OF_WHOLE_UNITS.has(code)) return amount * 100;
  if (currencyExponent(code) === 3 && amount % 10 !== 0) {
    throw new UnsupportedStripeAmount(`Stripe takes ${code} amounts in steps of 0.010 only; ${amount} thousandths is not one.`);
  }
  return amount;
}

export function fromStripeAmount(amount: number, currency: string): number {
  return STRIPE_HUNDREDTHS_OF_WHOLE_UNITS.has(currency.toUpperCase()) ? Math.round(amount / 100) : amount;
}
