import type { PaymentMethodResult, StripeError } from '@stripe/stripe-js';

/**
 * The card element's frame (test code, not Stripe), on the emulator's origin: the customer types
 * the card here, the frame checks it as Stripe.js's card element does, and on the page's request
 * (stripe.ts, `createPaymentMethod`) posts it to /v1/payment_methods with the publishable key. It
 * answers only the page whose origin the element gave it.
 */

const settings = new URLSearchParams(window.location.hash.slice(1));
const publishableKey = settings.get('key') ?? '';
const pageOrigin = settings.get('origin') ?? '';
const style = JSON.parse(settings.get('style') || '{}') as { color?: string; fontSize?: string; fontFamily?: string };

const input = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
const numberInput = input('cardnumber');
const expiryInput = input('exp-date');
const cvcInput = input('cvc');

for (const field of [numberInput, expiryInput, cvcInput]) {
  if (style.color) field.style.color = style.color;
  if (style.fontSize) field.style.fontSize = style.fontSize;
  if (style.fontFamily) field.style.fontFamily = style.fontFamily;
}

type Problem = { code: string; message: string };

const digits = (value: string) => value.replace(/\D/g, '');

function luhn(value: string): boolean {
  let sum = 0;
  for (let i = 0; i < value.length; i++) {
    let digit = Number(value[value.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

function expiryOf(): { month: number; year: number } | null {
  const match = /^(\d{1,2})\s*\/\s*(\d{2})$/.exec(expiryInput.value.trim());
  return match ? { month: Number(match[1]), year: 2000 + Number(match[2]) } : null;
}

/** The first problem of what was typed, in Stripe.js's words; `incomplete` problems are not shown while typing. */
function problemOf(final: boolean): Problem | null {
  const number = digits(numberInput.value);
  const needed = brandOf(number) === 'amex' ? 15 : 16;
  if (number.length < needed) return final ? { code: 'incomplete_number', message: 'Your card number is incomplete.' } : null;
  if (!luhn(number)) return { code: 'invalid_number', message: 'Your card number is invalid.' };
  const expiry = expiryOf();
  if (!expiry) return final ? { code: 'incomplete_expiry', message: 'Your card’s expiration date is incomplete.' } : null;
  const now = new Date();
  if (expiry.month < 1 || expiry.month > 12) return { code: 'invalid_expiry_month', message: 'Your card’s expiration date is invalid.' };
  if (expiry.year < now.getFullYear() || (expiry.year === now.getFullYear() && expiry.month < now.getMonth() + 1)) {
    return { code: 'invalid_expiry_year_past', message: 'Your card’s expiration date is in the past.' };
  }
  if (!/^\d{3,4}$/.test(cvcInput.value.trim())) return final ? { code: 'incomplete_cvc', message: 'Your card’s security code is incomplete.' } : null;
  return null;
}

function tell(type: string, event: Record<string, unknown> = {}) {
  window.parent.postMessage({ type, event }, pageOrigin);
}

function changed() {
  const number = digits(numberInput.value);
  const problem = problemOf(false);
  const empty = !number && !expiryInput.value && !cvcInput.value;
  tell('change', {
    empty,
    complete: !problemOf(true),
    brand: brandOf(number),
    error: problem ? { type: 'validation_error', code: problem.code, message: problem.message } : undefined,
  });
}

numberInput.addEventListener('input', () => {
  numberInput.value = (
    digits(numberInput.value)
      .slice(0, 19)
      .match(/.{1,4}/g) ?? []
  ).join(' ');
  changed();
});
expiryInput.addEventListener('input', () => {
  const typed = digits(expiryInput.value).slice(0, 4);
  expiryInput.value = typed.length > 2 ? `${typed.slice(0, 2)} / ${typed.slice(2)}` : typed;
  changed();
});
cvcInput.addEventListener('input', changed);
for (const field of [numberInput, expiryInput, cvcInput]) {
  field.addEventListener('focus', () => tell('focus'));
  field.addEventListener('blur', () => tell('blur'));
}

async function createPaymentMethod(billingDetails: Record<string, unknown>): Promise<PaymentMethodResult> {
  const problem = problemOf(true);
  if (problem) return { error: { type: 'validation_error', code: problem.code, message: problem.message } as StripeError };
  const expiry = expiryOf()!;
  const body = new URLSearchParams({
    type: 'card',
    'card[number]': digits(numberInput.value),
    'card[exp_month]': String(expiry.month),
    'card[exp_year]': String(expiry.year),
    'card[cvc]': cvcInput.value.trim(),
  });
  for (const [name, value] of Object.entries(billingDetails)) if (typeof value === 'string' && value) body.set(`billing_details[${name}]`, value);
  try {
    const answer = await fetch('/v1/payment_methods', {
      method: 'POST',
      headers: { authorization: `Bearer ${publishableKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const json = await answer.json();
    return answer.ok ? { paymentMethod: json } : { error: json.error as StripeError };
  } catch {
    return { error: { type: 'api_connection_error', message: 'We could not reach Stripe. Check your connection and try again.' } as StripeError };
  }
}

window.addEventListener('message', (event: MessageEvent<{ type: string; id?: number; billingDetails?: Record<string, unknown> }>) => {
  if (event.origin !== pageOrigin || event.source !== window.parent) return;
  const message = event.data;
  if (message.type === 'focus') numberInput.focus();
  if (message.type === 'clear') {
    for (const field of [numberInput, expiryInput, cvcInput]) field.value = '';
    changed();
  }
  if (message.type === 'createPaymentMethod') {
    void createPaymentMethod(message.billingDetails ?? {}).then((result) => window.parent.postMessage({ type: 'result', id: message.id, result }, pageOrigin));
  }
});

tell('resize', { height: Math.ceil(document.body.getBoundingClientRect().height) });
tell('ready');
