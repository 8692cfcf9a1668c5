import { config } from '../config';
import { paymentProcessor } from './processor';
import { CardInputError, type TokenizedCard } from './processor/types';

/**
 * How the hosted pages (checkout, portal) take a card (docs/processors.md, "PCI scope"). The
 * sandbox's form posts the card to Paybase, which tokenizes it in memory. With Stripe the page
 * loads Stripe.js from `jsUrl`, whose card element (a frame of Stripe's) makes a PaymentMethod
 * in the browser: the page posts only its id, and card numbers never reach Paybase.
 */
export type BrowserCardEntry = { processor: 'sandbox' } | { processor: 'stripe'; publishableKey: string; jsUrl: string; testMode: boolean };

export function browserCardEntry(): BrowserCardEntry {
  if (config.processor.name !== 'stripe') return { processor: 'sandbox' };
  const publishableKey = config.processor.stripe.publishableKey!;
  return { processor: 'stripe', publishableKey, jsUrl: config.processor.stripe.jsUrl, testMode: publishableKey.startsWith('pk_test_') };
}

/**
 * What a page needs to have the customer authenticate a card being saved (3-D Secure): the
 * processor's client secret for Stripe.js's `confirmCardSetup` (this customer's browser only;
 * never logged or stored), the verification to finish with, and the card's last digits to name it.
 */
export interface CardToAuthenticate {
  clientSecret: string;
  setupIntent: string;
  last4: string;
}

/** A token a page made in the browser (Stripe.js's `pm_…`) with its card's display details, asked of the processor. */
export async function cardOfBrowserToken(token: string): Promise<TokenizedCard> {
  const card = await paymentProcessor().describeToken(token);
  if (!card) throw new CardInputError('number', 'The card could not be read. Enter it again.');
  return { token, ...card };
}
