/**
 * Stripe's test PaymentMethods the emulator knows (test code), with the outcome Stripe documents
 * for each (docs.stripe.com/testing). Using one makes a fresh `pm_…` copy, as Stripe does.
 */
export type CardBehaviour = 'succeed' | 'decline' | 'insufficient_funds' | 'authenticate' | 'dispute' | 'expired';

export interface TestCard {
  brand: string;
  last4: string;
  behaviour: CardBehaviour;
}

export const TEST_PAYMENT_METHODS: Record<string, TestCard> = {
  pm_card_visa: { brand: 'visa', last4: '4242', behaviour: 'succeed' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', behaviour: 'succeed' },
  pm_card_amex: { brand: 'amex', last4: '8431', behaviour: 'succeed' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', behaviour: 'decline' },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995', behaviour: 'insufficient_funds' },
  pm_card_chargeDeclinedExpiredCard: { brand: 'visa', last4: '0069', behaviour: 'expired' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', behaviour: 'authenticate' },
  pm_card_createDispute: { brand: 'visa', last4: '0259', behaviour: 'dispute' },
};

/**
 * Stripe's test card numbers, as Stripe.js sends them from a card form: each makes a PaymentMethod
 * behaving as its test PaymentMethod above does.
 */
export const TEST_CARD_NUMBERS: Record<string, TestCard> = {
  '4242424242424242': TEST_PAYMENT_METHODS.pm_card_visa!,
  '5555555555554444': TEST_PAYMENT_METHODS.pm_card_mastercard!,
  '378282246310005': { brand: 'amex', last4: '0005', behaviour: 'succeed' },
  '4000000000000002': TEST_PAYMENT_METHODS.pm_card_chargeDeclined!,
  '4000000000009995': TEST_PAYMENT_METHODS.pm_card_chargeDeclinedInsufficientFunds!,
  '4000000000000069': TEST_PAYMENT_METHODS.pm_card_chargeDeclinedExpiredCard!,
  '4000002500003155': { brand: 'visa', last4: '3155', behaviour: 'authenticate' },
  '4000002760003184': TEST_PAYMENT_METHODS.pm_card_authenticationRequired!,
  '4000000000000259': TEST_PAYMENT_METHODS.pm_card_createDispute!,
};

export interface Decline {
  code: string;
  decline_code?: string;
  message: string;
}

export const DECLINES: Partial<Record<CardBehaviour, Decline>> = {
  decline: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  insufficient_funds: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  expired: { code: 'expired_card', decline_code: 'expired_card', message: 'Your card has expired.' },
};

export const AUTHENTICATION_REQUIRED: Decline = {
  code: 'authentication_required',
  decline_code: 'authentication_required',
  message: 'Your card was declined. This transaction requires authentication.',
};

export const AUTHENTICATION_FAILED: Decline = {
  code: 'payment_intent_authentication_failure',
  message:
    'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
};

/** A SetupIntent's `last_setup_error` after the customer failed (or left) its 3-D Secure challenge. */
export const SETUP_AUTHENTICATION_FAILED: Decline = {
  code: 'setup_intent_authentication_failure',
  message: 'The provided PaymentMethod has failed authentication. Provide a new payment method to attempt to fulfill this SetupIntent again.',
};
