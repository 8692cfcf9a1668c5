import type { ReactNode } from 'react';
import type { HostedCheckoutView } from '@/lib/checkout/hosted';
import type { CustomerText } from '@/lib/i18n/customer-text';
import { SubscriptionSummary } from './subscription-summary';
import { LiveTotal, QuantityField } from './quoted-total';

/**
 * The order half of a hosted checkout (the card form's page and the wallet's): seller, product,
 * and the price, quantity (chosen here when `chooseQuantity`) and total, or a subscription's terms. `children` follow the summary.
 */
export function OrderSummary({
  view,
  text,
  withCharges = true,
  chooseQuantity = false,
  children,
}: {
  view: HostedCheckoutView;
  text: CustomerText;
  withCharges?: boolean;
  /** The customer may choose the quantity here (a link with an adjustable quantity, on the card form's page). */
  chooseQuantity?: boolean;
  children?: ReactNode;
}) {
  const { t } = text;
  return (
    <section aria-labelledby="order-heading">
      <p className="text-sm font-medium text-slate-500" data-testid="seller">
        {view.sellerName}
      </p>
      <h1 id="order-heading" className="mt-1 text-2xl font-semibold tracking-tight">
        {view.name}
      </h1>
      {view.description && <p className="mt-2 text-slate-600">{view.description}</p>}
      {view.subscription ? (
        <>
          <SubscriptionSummary terms={view.subscription} text={text} withCharges={withCharges} />
          {view.meteredItems.length > 0 ? (
            <section
              className="mt-3 rounded-lg border border-slate-200 bg-white p-5 text-sm"
              aria-labelledby="metered-items-heading"
              data-testid="metered-items"
            >
              <h2 id="metered-items-heading" className="font-medium text-slate-900">
                {t('checkout.meteredItems')}
              </h2>
              <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700">
                {view.meteredItems.map((label) => (
                  <li key={label}>{label}</li>
                ))}
              </ul>
            </section>
          ) : null}
        </>
      ) : (
        <dl className="mt-6 space-y-2 rounded-lg border border-slate-200 bg-white p-5 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-slate-500">{t('checkout.price')}</dt>
            <dd>{view.unitAmount}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-slate-500">{t('checkout.quantity')}</dt>
            <dd data-testid="quantity">
              {view.adjustableQuantity && chooseQuantity ? (
                <QuantityField label={t('checkout.quantity')} initial={view.quantity} {...view.adjustableQuantity} />
              ) : (
                view.quantity
              )}
            </dd>
          </div>
          <div className="flex justify-between gap-4 border-t border-slate-100 pt-2 text-base font-semibold">
            <dt>{t('checkout.total')}</dt>
            <dd data-testid="list-total">
              <LiveTotal initial={view.total} />
            </dd>
          </div>
        </dl>
      )}
      {children}
    </section>
  );
}

/** Why a checkout cannot be paid (link inactive, sold out, expired), in place of its form. */
export function UnavailableNotice({ title, reason }: { title: string; reason: string }) {
  return (
    <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-5 text-amber-900">
      <h2 className="font-semibold" data-testid="unavailable-title">
        {title}
      </h2>
      <p className="mt-1" data-testid="unavailable-reason">
        {reason}
      </p>
    </div>
  );
}
