import type { InvoicePaymentView } from '@/lib/subscriptions/invoice-payment';
import type { CustomerText } from '@/lib/i18n/customer-text';
import { SubmitButton } from '@/components/ui/submit-button';

/**
 * Above the invoice: how the payment the customer came back from ended, a payment still waiting
 * for them at their bank, and Pay now. A plain form: it works before (and without) the page's scripts.
 */
export function InvoicePayment({ view, text, pay }: { view: InvoicePaymentView; text: CustomerText; pay: () => Promise<void> }) {
  const { t } = text;
  return (
    <div lang={text.locale} className="mb-6 space-y-4 empty:hidden">
      {view.returned?.status === 'paid' ? (
        <p role="status" data-testid="invoice-paid-now" className="rounded-md border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800">
          {t('invoice.paidNow')}
        </p>
      ) : null}
      {view.returned?.status === 'declined' ? (
        <p role="alert" data-testid="decline" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
          {t.rich('checkout.declinedMessage', { reason: view.returned.reason, strong: (chunks) => <strong>{chunks}</strong> })}
        </p>
      ) : null}
      {view.authenticateUrl ? (
        <section className="rounded-lg border border-amber-200 bg-amber-50 p-5 text-sm text-amber-900" data-testid="invoice-authentication">
          <p>{t('result.authenticationPending')}</p>
          <a href={view.authenticateUrl} className="mt-3 inline-block rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
            {t('result.continueAuthentication')}
          </a>
        </section>
      ) : null}
      {view.processing ? <p className="rounded-md border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700">{t('result.bankPending')}</p> : null}
      {view.offer ? (
        <section aria-labelledby="pay-invoice-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" data-testid="invoice-pay">
          <h2 id="pay-invoice-heading" className="text-base font-semibold text-slate-900">
            {t('invoice.payHeading')}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{t('invoice.payWith', { amount: view.offer.amount, card: view.offer.card })}</p>
          <form action={pay} className="mt-4">
            <SubmitButton pendingText={t('checkout.processing')}>{t('invoice.payNow')}</SubmitButton>
          </form>
        </section>
      ) : null}
    </div>
  );
}
