import { config } from '../config';
import type { Db } from '../db/client';
import { activeConnectionOf, processorForSeller } from './processor';
import { CardInputError, type TokenizedCard } from './processor/types';

/**
 * How the hosted pages (checkout, portal) take a card for a seller (docs/processors.md, "PCI
 * scope"). The sandbox's form posts the card to Paybase, which tokenizes it in memory. With
 * Stripe (the platform's or the seller's own connection) the page loads Stripe.js from `jsUrl`,
 * whose card element (a frame of Stripe's) makes a PaymentMethod in the browser: the page posts
 * only its id, and card numbers never reach Paybase.
 */
export type BrowserCardEntry = { processor: 'sandbox' } | { processor: 'stripe'; publishableKey: string; jsUrl: string; testMode: boolean };

export async function browserCardEntry(db: Db, merchantId: string): Promise<BrowserCardEntry> {
  const connection = await activeConnectionOf(db, merchantId);
  const { jsUrl } = config.processor.stripe;
  if (connection?.sealedSecretKey) return { processor: 'stripe', publishableKey: connection.publishableKey, jsUrl, testMode: connection.mode === 'test' };
  if (config.processor.name !== 'stripe') return { processor: 'sandbox' };
  const publishableKey = config.processor.stripe.publishableKey!;
  return { processor: 'stripe', publishableKey, jsUrl, testMode: publishableKey.startsWith('pk_test_') };
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

/** A token a page made in the browser (Stripe.js's `pm_…`) with its card's display details, asked of the seller's processor. */
export async function cardOfBrowserToken(db: Db, merchantId: string, token: string): Promise<TokenizedCard> {
  const card = await (await processorForSeller(db, merchantId)).describeToken(token);
  if (!card) throw new CardInputError('number', 'The card could not be read. Enter it again.');
  return { token, ...card };
}

/** The sandbox's typed card fields, tokenized in memory (a Stripe seller's processor refuses card numbers). */
export async function tokenizeTypedCard(
  db: Db,
  merchantId: string,
  input: { number: string; expMonth: number; expYear: number; cvc: string },
): Promise<TokenizedCard> {
  return (await processorForSeller(db, merchantId)).tokenizeCard(input);
}
