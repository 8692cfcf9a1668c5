import { customerText } from '../i18n/customer-text';
import type { Locale } from '../i18n/locales';
import type { EmailMessage } from './send-email';
import { escapeHtml } from '../designs/escape-html';
import { designedEmailHtml, emailButton } from '../designs/email';
import type { HostedDesign } from '../designs/hosted-design';

/** Customer emails in the customer's language (docs/i18n.md says which language each one uses). */

/** The wallet's single-use sign-in link (and its code, for apps). */
export function walletSignInEmail(input: { to: string; locale: Locale; link: string; loginToken: string; minutes: number }): EmailMessage {
  const { t } = customerText(input.locale);
  const expiry = t('email.walletExpiry', { minutes: input.minutes });
  return {
    to: input.to,
    subject: t('email.walletSubject'),
    category: 'member.login',
    text: [t('email.walletIntro'), '', input.link, '', expiry, '', t('email.walletCode', { code: input.loginToken })].join('\n'),
    html: `<p>${escapeHtml(t('email.walletIntro'))}</p><p><a href="${escapeHtml(input.link)}">${escapeHtml(t('email.walletButton'))}</a></p><p>${escapeHtml(expiry)}</p>`,
    secrets: [input.loginToken],
  };
}

/** The customer portal's single-use link (`token`), mailed to the address the seller has on file, in the seller's default design. */
export function portalLinkEmail(input: {
  to: string;
  locale: Locale;
  sellerName: string;
  link: string;
  token: string;
  design: HostedDesign | null;
}): EmailMessage {
  const { t } = customerText(input.locale);
  const seller = input.sellerName;
  return {
    to: input.to,
    subject: t('email.portalSubject', { seller }),
    category: 'portal.link',
    text: [t('email.portalIntro', { seller }), '', input.link, '', t('email.portalTypeEmail'), t('email.portalIgnore')].join('\n'),
    html: designedEmailHtml(
      input.design,
      `<p>${escapeHtml(t('email.portalIntro', { seller }))}</p>${emailButton(input.design, input.link, t('email.portalButton'))}<p>${escapeHtml(t('email.portalTypeEmail'))} ${escapeHtml(t('email.portalIgnore'))}</p>`,
      customerText(input.locale).designWords(),
    ),
    secrets: [input.token],
  };
}

/**
 * "Confirm your payment": a subscription charge made off-session was declined because the bank
 * asks the customer to authenticate it; `link` is the open record's hosted invoice page, whose
 * Pay now charges the card with the customer there. The page's address is its only credential
 * (`token`), so the outbox keeps it sealed like a sign-in link.
 */
export function paymentAuthenticationEmail(input: {
  to: string;
  locale: Locale;
  sellerName: string;
  amount: string;
  link: string;
  token: string;
  design: HostedDesign | null;
}): EmailMessage {
  const text = customerText(input.locale);
  const { t } = text;
  const seller = input.sellerName;
  const intro = t('email.authenticationIntro', { seller, amount: input.amount });
  const note = t('email.authenticationNote', { seller });
  return {
    to: input.to,
    subject: t('email.authenticationSubject', { seller }),
    category: 'payment.authentication',
    text: [intro, '', input.link, '', note].join('\n'),
    html: designedEmailHtml(
      input.design,
      `<p>${escapeHtml(intro)}</p>${emailButton(input.design, input.link, t('email.authenticationButton'))}<p>${escapeHtml(note)}</p>`,
      text.designWords(),
    ),
    secrets: [input.token],
  };
}
