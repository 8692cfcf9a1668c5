import { ApiError } from '../errors';
import type { CustomerText } from './customer-text';

const FIELD_WORDS = {
  email: 'portal.verify.wrongEmail',
  cardNumber: 'checkout.errors.cardNumber',
  expiry: 'checkout.errors.cardExpiry',
  cvc: 'checkout.errors.cardCvc',
} as const;

/**
 * A refusal from the domain, worded for a customer page in its language. The domain explains
 * itself in English (the API's words, naming the exact rule), which English pages keep; other
 * languages get the translated gist of the error's code and of each field's message.
 */
export function customerError(error: unknown, text: CustomerText): unknown {
  if (!(error instanceof ApiError) || text.locale === 'en') return error;
  const { t } = text;
  const detail =
    error.code === 'UNAUTHENTICATED'
      ? t('portal.notices.sessionEnded')
      : error.code === 'RATE_LIMITED'
        ? t('portal.notices.rateLimited')
        : error.code === 'NOT_FOUND'
          ? t('portal.notices.noSuchSubscription')
          : error.code === 'VALIDATION_FAILED'
            ? t('common.correctFields')
            : t('portal.notices.refused');
  const errors = error.options.errors?.map((fieldError) => {
    const key = FIELD_WORDS[fieldError.path.split('.')[0] as keyof typeof FIELD_WORDS];
    return { ...fieldError, message: key ? t(key) : t('common.correctFields') };
  });
  return new ApiError(error.code, detail, { ...error.options, errors });
}
