import type { SubscriptionTerms } from '@/lib/checkout/subscription-terms';
import { LiveTotal } from './quoted-total';
import type { CustomerText } from '@/lib/i18n/customer-text';

/**
 * The order panel of a checkout selling a subscription: the price per interval, the trial, what
 * is due today, and (unless the form beside it says it, updated for a code) the charges in words.
 */
export function SubscriptionSummary({ terms, text, withCharges = true }: { terms: SubscriptionTerms; text: CustomerText; withCharges?: boolean }) {
  const { t } = text;
  return (
    <dl className="mt-6 space-y-2 rounded-lg border border-slate-200 bg-white p-5 text-sm" aria-label={t('checkout.subscription')}>
      <div className="flex justify-between gap-4">
        <dt className="text-slate-500">{t('checkout.subscription')}</dt>
        <dd data-testid="recurring-price">{terms.recurringLabel}</dd>
      </div>
      {terms.trialDays > 0 ? (
        <div className="flex justify-between gap-4">
          <dt className="text-slate-500">{t('checkout.freeTrial')}</dt>
          <dd>{t('checkout.trialDays', { days: terms.trialDays })}</dd>
        </div>
      ) : null}
      <div className="flex justify-between gap-4 border-t border-slate-100 pt-2 text-base font-semibold">
        <dt>{t('checkout.dueToday')}</dt>
        <dd data-testid="list-total">
          <LiveTotal initial={terms.dueToday} />
        </dd>
      </div>
      {withCharges ? (
        <p className="pt-1 text-slate-600" data-testid="subscription-summary">
          {terms.summary}.
        </p>
      ) : null}
    </dl>
  );
}
