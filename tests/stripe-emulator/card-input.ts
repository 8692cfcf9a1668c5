import { randomBytes } from 'node:crypto';
import { fromFixture, unixNow, type StripeObject } from './fixtures';
import { TEST_CARD_NUMBERS, type CardBehaviour, type TestCard } from './test-cards';
import { invalidRequest, StripeError } from './validation';

/**
 * A card typed into Stripe.js's card form and posted with the publishable key (test code): checked
 * as Stripe checks it, then matched to a test card number (test-cards.ts). A secret key may not
 * send card numbers (Stripe's "raw card data" refusal): Paybase's server never has them.
 */
export interface CardInput {
  card: TestCard;
  expMonth: number;
  expYear: number;
}

export function cardOfInput(params: Record<string, unknown>, key: { livemode: boolean; publishable: boolean }): CardInput {
  const card = (params.card ?? {}) as { number?: unknown; exp_month?: unknown; exp_year?: unknown; cvc?: unknown; token?: unknown };
  if (params.type !== 'card' || card.number === undefined) {
    throw invalidRequest('The emulator makes card PaymentMethods from card numbers only: type=card with card[number].', 'card[number]', 'parameter_missing');
  }
  if (!key.publishable) {
    throw invalidRequest(
      'Sending credit card numbers directly to the Stripe API is generally unsafe. We suggest you use test tokens that map to the test card you are using, see https://stripe.com/docs/testing.',
      'card[number]',
    );
  }
  const number = String(card.number).replace(/\s/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) throw cardInputError('incorrect_number', 'number', 'Your card number is incorrect.');
  const expMonth = Number(card.exp_month);
  const expYear = Number(card.exp_year);
  if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12)
    throw cardInputError('invalid_expiry_month', 'exp_month', 'Your card’s expiration month is invalid.');
  const now = new Date();
  if (!Number.isInteger(expYear) || expYear < now.getUTCFullYear() || (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1)) {
    throw cardInputError('invalid_expiry_year', 'exp_year', 'Your card’s expiration year is invalid.');
  }
  if (!/^\d{3,4}$/.test(String(card.cvc ?? ''))) throw cardInputError('invalid_cvc', 'cvc', 'Your card’s security code is invalid.');
  const testCard = TEST_CARD_NUMBERS[number];
  if (key.livemode) {
    const message = testCard
      ? 'Your card was declined. Your request was in live mode, but used a known test card.'
      : 'Your card was declined. The Stripe emulator charges no real card.';
    throw cardInputError('card_declined', undefined, message, testCard ? 'live_mode_test_card' : 'generic_decline');
  }
  if (!testCard) {
    throw cardInputError(
      'card_declined',
      undefined,
      'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
      'test_mode_live_card',
    );
  }
  return { card: testCard, expMonth, expYear };
}

/** A card PaymentMethod as Stripe shows it, with the test card's behaviour beside it (never sent: server.ts). */
export function cardPaymentMethod(
  id: string,
  card: TestCard,
  expiry: { exp_month: number; exp_year: number },
  own: Record<string, unknown> = {},
): StripeObject & { behaviour: CardBehaviour } {
  return Object.assign(
    fromFixture('payment_method', {
      id,
      created: unixNow(),
      customer: null,
      metadata: {},
      billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
      ...own,
      card: {
        brand: card.brand,
        display_brand: card.brand,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: null },
        country: 'US',
        ...expiry,
        fingerprint: randomBytes(8).toString('hex'),
        funding: 'credit',
        generated_from: null,
        last4: card.last4,
        networks: { available: [card.brand], preferred: null },
        three_d_secure_usage: { supported: true },
        wallet: null,
        regulated_status: 'unregulated',
      },
    }),
    { behaviour: card.behaviour },
  );
}

function cardInputError(code: string, param: string | undefined, message: string, declineCode?: string): StripeError {
  return new StripeError(402, {
    error: { type: 'card_error', code, message, ...(param ? { param } : {}), ...(declineCode ? { decline_code: declineCode } : {}) },
  });
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}
