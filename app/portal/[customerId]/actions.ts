'use server';

import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { ApiError, invalidField } from '@/lib/errors';
import { field, formAction, requireConfirmed, type FormState } from '@/lib/server/web/form-state';
import { endPortalSession, portalPath, requestPortalLink, verifyPortalLink } from '@/lib/portal/portal';
import { plainPhases } from '@/lib/db/phases';
import { cancelSubscription, commandSubscription } from '@/lib/subscriptions/commands';
import { findSubscriptionRow } from '@/lib/subscriptions/queries';
import { commandSubscriptionInPhases } from '@/lib/subscriptions/charging-requests';
import { addVerifiedDefaultCard, finishAddingDefaultCard, makeDefaultPaymentMethod, removePaymentMethod } from '@/lib/saved-cards/saved-cards';
import { cardOfBrowserToken, tokenizeTypedCard, type CardToAuthenticate } from '@/lib/payments/card-entry';
import { CardAuthenticationNeeded } from '@/lib/payments/card-verification';
import { CardInputError, type TokenizedCard } from '@/lib/payments/processor/types';
import { customerText, isAuthenticationDecline, type CustomerText } from '@/lib/i18n/customer-text';
import { customerError } from '@/lib/i18n/customer-errors';
import { actionLocale } from '@/lib/server/web/page-locale';
import { clearPortalCookie, requirePortalCustomer, setPortalCookie } from './session';

/**
 * Runs a portal action in the language of the page it came from (its `locale` field): notices
 * and refusals are worded for the customer (lib/i18n/customer-errors.ts).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a piece of work may end without an answer (`return;`, a redirect), which only `void` accepts.
async function portalAction(form: FormData, work: (text: CustomerText) => Promise<FormState | void>): Promise<FormState> {
  const text = customerText(await actionLocale(field(form, 'locale')));
  return formAction(async () => {
    try {
      return await work(text);
    } catch (error) {
      throw customerError(error, text);
    }
  }, text.formWords());
}

export async function requestLinkAction(_state: FormState, form: FormData): Promise<FormState> {
  return portalAction(form, async (text) => {
    await getDb().transaction((tx) => requestPortalLink(tx, field(form, 'customerId'), text.locale));
    return { notice: text.t('portal.linkSent') };
  });
}

export async function verifyPortalAction(_state: FormState, form: FormData): Promise<FormState> {
  const customerId = field(form, 'customerId');
  const result = await portalAction(form, async (text) => {
    const email = field(form, 'email');
    if (!email) throw invalidField('email', text.t('portal.verify.typeEmail'));
    const session = await getDb()
      .transaction((tx) => verifyPortalLink(tx, customerId, field(form, 'token'), email))
      .catch((error: unknown) => {
        throw error instanceof ApiError && error.code === 'UNAUTHENTICATED' && text.locale !== 'en'
          ? new ApiError('UNAUTHENTICATED', text.t('portal.verify.invalidLink'))
          : error;
      });
    await setPortalCookie(customerId, session);
  });
  if (result.error) return result;
  redirect(portalPath(customerId));
}

export async function signOutPortalAction(form: FormData) {
  const customerId = field(form, 'customerId');
  const token = await clearPortalCookie(customerId);
  if (token) await endPortalSession(getDb(), token);
  redirect(portalPath(customerId));
}

/** The signed-in customer's own subscription named by the form. */
async function ownSubscription(form: FormData) {
  const { customer } = await requirePortalCustomer(field(form, 'customerId'));
  const sub = await findSubscriptionRow(getDb(), customer.merchantId, field(form, 'subscriptionId'));
  if (sub.customerId !== customer.id) throw new ApiError('NOT_FOUND', 'No such subscription.');
  return { merchantId: customer.merchantId, customerId: customer.id, subscriptionId: sub.id };
}

/** Runs a portal mutation for the signed-in customer, on one of their own subscriptions. */
async function onOwnSubscription<T>(
  form: FormData,
  work: (
    tx: Parameters<Parameters<ReturnType<typeof getDb>['transaction']>[0]>[0],
    merchantId: string,
    customerId: string,
    subscriptionId: string,
  ) => Promise<T>,
) {
  const customerId = field(form, 'customerId');
  const { customer } = await requirePortalCustomer(customerId);
  const subscriptionId = field(form, 'subscriptionId');
  await getDb().transaction(async (tx) => {
    const sub = await findSubscriptionRow(tx, customer.merchantId, subscriptionId);
    if (sub.customerId !== customer.id) throw new ApiError('NOT_FOUND', 'No such subscription.');
    await work(tx, customer.merchantId, customer.id, sub.id);
  });
  revalidatePath(portalPath(customerId));
}

export async function changePlanAction(_state: FormState, form: FormData): Promise<FormState> {
  return portalAction(form, async (text) => {
    let declined: string | null = null;
    // Ownership is checked first; the change charges in phases, so no transaction is held here.
    const own = await ownSubscription(form);
    const result = await commandSubscriptionInPhases(
      plainPhases(getDb()),
      own.merchantId,
      own.subscriptionId,
      {
        type: 'ChangePrice',
        priceId: field(form, 'priceId'),
        expectedVersion: field(form, 'expectedVersion') || undefined,
        reason: 'Changed in the customer portal',
      },
      `portal:${own.customerId}`,
    );
    revalidatePath(portalPath(own.customerId));
    if (result.declined) declined = result.message;
    if (declined) return { error: text.t('portal.notices.planDeclined', { reason: text.locale === 'en' ? declined : text.t('checkout.errors.declined') }) };
    redirect(`${portalPath(field(form, 'customerId'))}?changed=1`);
  });
}

export async function cancelAtPeriodEndAction(_state: FormState, form: FormData): Promise<FormState> {
  return portalAction(form, async (text) => {
    requireConfirmed(form, 'cancel your subscription');
    await onOwnSubscription(form, (tx, merchantId, customerId, subscriptionId) =>
      cancelSubscription(tx, merchantId, subscriptionId, false, `portal:${customerId}`),
    );
    return { notice: text.t('portal.notices.canceled') };
  });
}

export async function reactivateAction(_state: FormState, form: FormData): Promise<FormState> {
  return portalAction(form, async (text) => {
    await onOwnSubscription(form, (tx, merchantId, customerId, subscriptionId) =>
      commandSubscription(tx, merchantId, subscriptionId, { type: 'Reactivate', reason: 'Reactivated in the customer portal' }, `portal:${customerId}`),
    );
    return { notice: text.t('portal.notices.reactivated') };
  });
}

export async function addCardAction(_state: FormState, form: FormData): Promise<FormState> {
  return portalAction(form, async (text) => {
    const customerId = field(form, 'customerId');
    const { customer } = await requirePortalCustomer(customerId);
    let card: TokenizedCard;
    try {
      // Stripe mode: the PaymentMethod Stripe.js made in the browser; the sandbox: its card fields.
      card = field(form, 'paymentMethod')
        ? await cardOfBrowserToken(getDb(), customer.merchantId, field(form, 'paymentMethod'))
        : await typedCard(customer.merchantId, form);
    } catch (error) {
      if (error instanceof CardInputError) throw invalidField(error.field === 'number' ? 'cardNumber' : error.field, error.message);
      throw error;
    }
    try {
      await addVerifiedDefaultCard(getDb(), customer.merchantId, customer.id, card, `portal:${customer.id}`);
    } catch (error) {
      // 3-D Secure: the page has Stripe.js show the challenge, then finishes with finishAddCardAction.
      if (error instanceof CardAuthenticationNeeded) {
        const authenticate: CardToAuthenticate = { clientSecret: error.clientSecret(), setupIntent: error.reference, last4: card.last4 };
        return { result: { authenticate } };
      }
      if (error instanceof ApiError && error.code === 'PAYMENT_DECLINED') {
        return { error: text.t('portal.notices.cardDeclined', { last4: card.last4, reason: declineWords(error, text) }) };
      }
      throw error;
    }
    revalidatePath(portalPath(customerId));
    return { notice: text.t('portal.notices.cardAdded', { last4: card.last4 }) };
  });
}

/**
 * The second step of adding a card whose issuer asked for 3-D Secure, after Stripe.js's
 * challenge: the domain reads the verification back from Stripe (whatever the page says about
 * it), checks it was this customer's, and saves the card as addCardAction does, once.
 */
export async function finishAddCardAction(_state: FormState, form: FormData): Promise<FormState> {
  return portalAction(form, async (text) => {
    const customerId = field(form, 'customerId');
    const { customer } = await requirePortalCustomer(customerId);
    let saved: Awaited<ReturnType<typeof finishAddingDefaultCard>>;
    try {
      saved = await finishAddingDefaultCard(getDb(), customer.merchantId, customer.id, field(form, 'setupIntent'), `portal:${customer.id}`);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'PAYMENT_DECLINED') {
        // The card's last digits as the first step answered them (shown to this customer only; nothing is saved).
        const last4 = /^\d{4}$/.test(field(form, 'last4')) ? field(form, 'last4') : '••••';
        return { error: text.t('portal.notices.cardDeclined', { last4, reason: declineWords(error, text) }) };
      }
      throw error;
    }
    revalidatePath(portalPath(customerId));
    return { notice: text.t('portal.notices.cardAdded', { last4: saved.last4 }) };
  });
}

/** A decline in the customer's words: in English Stripe's own (written for customers), except an authentication not completed, which is ours. */
function declineWords(error: ApiError, text: CustomerText): string {
  const code = String(error.options.extra?.declineCode ?? '');
  if (text.locale !== 'en' || isAuthenticationDecline(code)) return text.declineReason(code);
  return String(error.options.extra?.declineMessage ?? text.t('portal.notices.declinedReason'));
}

function typedCard(merchantId: string, form: FormData): Promise<TokenizedCard> {
  const [month, year] = field(form, 'expiry')
    .split('/')
    .map((part) => Number(part.trim()));
  return tokenizeTypedCard(getDb(), merchantId, {
    number: field(form, 'cardNumber'),
    expMonth: month ?? 0,
    expYear: year !== undefined && year < 100 ? 2000 + year : (year ?? 0),
    cvc: field(form, 'cvc'),
  });
}

export async function setDefaultCardAction(_state: FormState, form: FormData): Promise<FormState> {
  return portalAction(form, async (text) => {
    const customerId = field(form, 'customerId');
    const { customer } = await requirePortalCustomer(customerId);
    await getDb().transaction((tx) => makeDefaultPaymentMethod(tx, customer.merchantId, customer.id, field(form, 'paymentMethodId'), `portal:${customer.id}`));
    revalidatePath(portalPath(customerId));
    return { notice: text.t('portal.notices.defaultUpdated') };
  });
}

export async function removeCardAction(_state: FormState, form: FormData): Promise<FormState> {
  return portalAction(form, async (text) => {
    const customerId = field(form, 'customerId');
    const { customer } = await requirePortalCustomer(customerId);
    await getDb().transaction((tx) => removePaymentMethod(tx, customer.merchantId, customer.id, field(form, 'paymentMethodId'), `portal:${customer.id}`));
    revalidatePath(portalPath(customerId));
    return { notice: text.t('portal.notices.cardRemoved') };
  });
}
