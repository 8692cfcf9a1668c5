import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { customerText } from '@/lib/i18n/customer-text';
import { pageLocale } from '@/lib/server/web/page-locale';
import { portalDesign } from './design';
import { portalOverview } from '@/lib/portal/overview';
import { previewPriceChange } from '@/lib/subscriptions/price-change';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { Button, LinkButton } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Badge, Card, DescriptionList, EmptyState } from '@/components/ui/layout';
import { SubmitButton } from '@/components/ui/submit-button';
import { TransientMessage } from '@/components/ui/stale-messages';
import { ConfirmButton } from '@/components/ui/confirm-button';
import {
  addCardAction,
  cancelAtPeriodEndAction,
  changePlanAction,
  reactivateAction,
  removeCardAction,
  requestLinkAction,
  setDefaultCardAction,
  signOutPortalAction,
} from './actions';
import { currentPortalCustomer } from './session';
import { StripeAddCardForm } from './stripe-add-card';
import { browserCardEntry } from '@/lib/payments/card-entry';
import { UsageOverview } from '@/components/usage/usage-overview';
import { getCustomerUsageOverview } from '@/lib/usage/customer-usage';
import { BillingHistory } from './billing-history';

export async function generateMetadata({ params }: { params: Promise<{ customerId: string }> }): Promise<Metadata> {
  const design = await portalDesign((await params).customerId);
  return { title: customerText(await pageLocale(design?.defaultLocale)).t('portal.title'), referrer: 'no-referrer' };
}
export const dynamic = 'force-dynamic';

const STATUS_TONE = { trialing: 'blue', active: 'green', past_due: 'red', canceled: 'gray', ended: 'gray' } as const;

export default async function PortalPage({
  params,
  searchParams,
}: {
  params: Promise<{ customerId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { customerId } = await params;
  const query = await searchParams;
  const text = customerText(await pageLocale((await portalDesign(customerId))?.defaultLocale));
  const { t, locale, date } = text;
  const withUsage = (plusUsage: boolean, charge: string) => (plusUsage ? t('portal.chargePlusUsage', { charge }) : charge);
  const session = await currentPortalCustomer(customerId);
  if (!session) {
    return (
      <AuthCard lang={locale} title={t('portal.signInTitle')} subtitle={t('portal.signInSubtitle')}>
        <ActionForm action={requestLinkAction} className="space-y-4" ariaLabel={t('portal.requestLinkForm')}>
          <input type="hidden" name="customerId" value={customerId} />
          <input type="hidden" name="locale" value={locale} />
          <SubmitButton pendingText={t('portal.sending')}>{t('portal.requestLink')}</SubmitButton>
        </ActionForm>
      </AuthCard>
    );
  }
  const { customer, sellerName, sellerSuspended } = session;
  const [overview, usage] = await Promise.all([
    portalOverview(getDb(), customer.merchantId, customer.id, text),
    getCustomerUsageOverview(getDb(), customer.merchantId, customer.id, { history: false }),
  ]);
  const previewSub = typeof query.subscription === 'string' ? query.subscription : undefined;
  const previewPrice = typeof query.priceId === 'string' ? query.priceId : undefined;
  let preview: Awaited<ReturnType<typeof previewPriceChange>> | null = null;
  let previewError: string | null = null;
  if (previewSub && previewPrice && overview.subscriptions.some((s) => s.id === previewSub)) {
    try {
      preview = await previewPriceChange(getDb(), customer.merchantId, previewSub, previewPrice);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      previewError = locale === 'en' ? error.detail : t('portal.previewFailed');
    }
  }
  const money = text.money;
  const cardEntry = await browserCardEntry(getDb(), customer.merchantId);
  const hidden = (
    <>
      <input type="hidden" name="customerId" value={customer.id} />
      <input type="hidden" name="locale" value={locale} />
    </>
  );
  return (
    <main id="main" lang={locale} className="mx-auto max-w-4xl space-y-6 px-4 py-10">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <p className="text-sm text-slate-600">{sellerName}</p>
          <h1 className="text-2xl font-semibold text-slate-900">{t('portal.heading')}</h1>
          <p className="text-sm text-slate-600">{t('portal.signedInAs', { email: customer.email ?? '' })}</p>
        </div>
        <form action={signOutPortalAction}>
          {hidden}
          <Button variant="secondary" size="sm" type="submit">
            {t('portal.signOut')}
          </Button>
        </form>
      </header>
      {query.changed ? (
        <TransientMessage>
          <Alert tone="success">{t('portal.planChanged')}</Alert>
        </TransientMessage>
      ) : null}
      {sellerSuspended ? (
        <Alert tone="warning">
          <strong>{t('portal.sellerSuspended', { seller: sellerName })}</strong> {t('portal.sellerSuspendedDetail')}
        </Alert>
      ) : null}

      {overview.subscriptions.length === 0 ? (
        <Card>
          <EmptyState title={t('portal.noSubscriptions')}>{t('portal.noSubscriptionsDetail', { seller: sellerName })}</EmptyState>
        </Card>
      ) : null}
      {overview.subscriptions.map((sub) => (
        <Card key={sub.id} title={sub.productName} actions={<Badge tone={STATUS_TONE[sub.status]}>{t('portal.status', { status: sub.status })}</Badge>}>
          <DescriptionList
            items={[
              [t('portal.plan'), sub.priceLabel],
              [t('portal.currentPeriod'), `${date(sub.currentPeriodStart)} – ${date(sub.currentPeriodEnd)}`],
              ...(sub.trialEnd && sub.status === 'trialing' ? ([[t('portal.trialEnds'), date(sub.trialEnd)]] as [string, string][]) : []),
              ...(sub.discountLabel ? ([[t('portal.discount'), sub.discountLabel]] as [string, string][]) : []),
              [
                t('portal.nextCharge'),
                sub.nextCharge
                  ? withUsage(
                      sub.nextCharge.plusUsage,
                      sub.nextCharge.discount
                        ? t('portal.chargeOnAfterDiscount', { amount: sub.nextCharge.amount, date: date(sub.nextCharge.at), discount: sub.nextCharge.discount })
                        : t('portal.chargeOn', { amount: sub.nextCharge.amount, date: date(sub.nextCharge.at) }),
                    )
                  : sub.status === 'canceled'
                    ? t('portal.noneEnds', { date: date(sub.currentPeriodEnd) })
                    : t('portal.none'),
              ],
              ...(sub.creditBalanceLabel ? ([[t('portal.credit'), sub.creditBalanceLabel]] as [string, string][]) : []),
            ]}
          />
          {sub.upcomingInvoice ? (
            <section className="mt-6 border-t border-slate-100 pt-4" aria-labelledby={`upcoming-${sub.id}`} data-testid="portal-upcoming-invoice">
              <h3 id={`upcoming-${sub.id}`} className="text-sm font-semibold text-slate-900">
                {t('portal.upcoming')}
              </h3>
              <p className="mt-1 text-xs text-slate-600">{t('portal.upcomingNote', { date: date(sub.upcomingInvoice.at) })}</p>
              <ul className="mt-2 divide-y divide-slate-100 text-sm">
                {sub.upcomingInvoice.lines.map((line, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: an invoice's lines are a fixed document in its own order; two lines may read the same.
                  <li key={index} className="flex justify-between gap-4 py-2" data-line-kind={line.kind}>
                    <span>
                      {line.description}
                      {line.details.map((detail) => (
                        <span key={detail} className="block text-xs text-slate-500">
                          {detail}
                        </span>
                      ))}
                    </span>
                    <span className="shrink-0 tabular-nums">{line.amount}</span>
                  </li>
                ))}
              </ul>
              <p className="mt-2 flex justify-between text-sm font-semibold text-slate-900">
                <span>{t('portal.upcomingTotal')}</span>
                <span className="tabular-nums">{sub.upcomingInvoice.total}</span>
              </p>
            </section>
          ) : null}
          {sub.status !== 'ended' ? (
            <div className="mt-6 space-y-4 border-t border-slate-100 pt-4">
              {sub.options.length > 0 && sub.status !== 'past_due' ? (
                <form method="get" className="flex flex-wrap items-end gap-3" aria-label={t('portal.previewForm')}>
                  <input type="hidden" name="subscription" value={sub.id} />
                  <label className="text-sm">
                    <span className="mb-1 block font-medium text-slate-800">{t('portal.changePlan')}</span>
                    <select
                      name="priceId"
                      defaultValue={previewSub === sub.id ? previewPrice : undefined}
                      className="rounded-md border border-slate-300 px-3 py-2 text-sm"
                    >
                      {sub.options.map((o) => (
                        <option key={o.id} value={o.id}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                  </label>
                  <Button type="submit" variant="secondary">
                    {t('portal.previewChange')}
                  </Button>
                </form>
              ) : null}
              {previewSub === sub.id && previewError ? <Alert tone="error">{previewError}</Alert> : null}
              {previewSub === sub.id && preview ? (
                <section className="rounded-md border border-brand-200 bg-brand-50 p-4 text-sm" aria-label={t('portal.previewLabel')}>
                  <p className="font-medium text-slate-900">{t('portal.ifYouChange')}</p>
                  <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-800">
                    <li>{t('portal.chargedToday', { amount: money(preview.amountDueNow, preview.currency) })}</li>
                    {preview.net < 0 ? <li>{t('portal.creditUnused', { amount: money(-preview.net, preview.currency) })}</li> : null}
                    <li>
                      {preview.nextRenewal.discountAmount > 0
                        ? t('portal.nextRenewalAfterDiscount', {
                            date: date(preview.nextRenewal.at),
                            amount: money(preview.nextRenewal.amountDue, preview.currency),
                            discount: money(preview.nextRenewal.discountAmount, preview.currency),
                          })
                        : t('portal.nextRenewal', { date: date(preview.nextRenewal.at), amount: money(preview.nextRenewal.amountDue, preview.currency) })}
                    </li>
                  </ul>
                  <ActionForm action={changePlanAction} className="mt-3" ariaLabel={t('portal.confirmChangeForm')}>
                    {hidden}
                    <input type="hidden" name="subscriptionId" value={sub.id} />
                    <input type="hidden" name="priceId" value={preview.toPriceId} />
                    <input type="hidden" name="expectedVersion" value={sub.version} />
                    <SubmitButton pendingText={t('portal.changing')}>{t('portal.confirmChange')}</SubmitButton>
                  </ActionForm>
                </section>
              ) : null}
              <div className="flex flex-wrap gap-3">
                {sub.status === 'canceled' ? (
                  <ActionForm action={reactivateAction} ariaLabel={t('portal.keep')}>
                    {hidden}
                    <input type="hidden" name="subscriptionId" value={sub.id} />
                    <SubmitButton pendingText={t('portal.saving')}>{t('portal.keep')}</SubmitButton>
                  </ActionForm>
                ) : (
                  <ActionForm action={cancelAtPeriodEndAction} ariaLabel={t('portal.cancelForm')}>
                    {hidden}
                    <input type="hidden" name="subscriptionId" value={sub.id} />
                    <ConfirmButton
                      question={t('portal.cancelQuestion', { date: date(sub.currentPeriodEnd) })}
                      confirmLabel={t('portal.cancelConfirm')}
                      cancelLabel={t('common.cancel')}
                    >
                      {t('portal.cancelButton')}
                    </ConfirmButton>
                  </ActionForm>
                )}
              </div>
            </div>
          ) : null}
        </Card>
      ))}

      <UsageOverview usage={usage} audience="customer" text={text} />

      <Card title={t('portal.paymentMethods')}>
        {overview.paymentMethods.length === 0 ? <EmptyState title={t('portal.noCards')} /> : null}
        <ul className="divide-y divide-slate-100">
          {overview.paymentMethods.map((method) => (
            <li key={method.id} className="flex flex-wrap items-center justify-between gap-3 py-2 text-sm">
              <span>
                <span className="font-medium capitalize">{method.brand}</span> •••• {method.last4}
                <span className="ml-2 text-slate-600">
                  {String(method.expMonth).padStart(2, '0')}/{method.expYear}
                </span>
                {method.isDefault ? (
                  <span className="ml-2">
                    <Badge tone="blue">{t('common.default')}</Badge>
                  </span>
                ) : null}
              </span>
              <span className="ml-auto flex gap-2">
                {/* Mounted for the default card too, so "Default card updated." stays with the card it is about. */}
                <ActionForm action={setDefaultCardAction} ariaLabel={t('portal.makeDefaultForm', { last4: method.last4 })}>
                  {hidden}
                  <input type="hidden" name="paymentMethodId" value={method.id} />
                  {!method.isDefault ? (
                    <SubmitButton variant="secondary" size="sm" pendingText={t('common.working')}>
                      {t('portal.makeDefault')}
                    </SubmitButton>
                  ) : null}
                </ActionForm>
                <ActionForm action={removeCardAction} ariaLabel={t('portal.removeForm', { last4: method.last4 })}>
                  {hidden}
                  <input type="hidden" name="paymentMethodId" value={method.id} />
                  <SubmitButton variant="ghost" size="sm" pendingText={t('common.working')}>
                    {t('portal.remove')}
                  </SubmitButton>
                </ActionForm>
              </span>
            </li>
          ))}
        </ul>
        {cardEntry.processor === 'stripe' ? (
          <StripeAddCardForm
            stripe={{ publishableKey: cardEntry.publishableKey, jsUrl: cardEntry.jsUrl }}
            customerId={customer.id}
            locale={locale}
            words={{
              form: t('portal.addCardForm'),
              card: t('checkout.card'),
              unavailable: t('checkout.cardFormUnavailable'),
              add: t('portal.addCard'),
              adding: t('portal.adding'),
            }}
          />
        ) : (
          <ActionForm action={addCardAction} className="mt-4 grid gap-3 sm:grid-cols-4" ariaLabel={t('portal.addCardForm')}>
            {hidden}
            <TextField
              label={t('common.cardNumber')}
              name="cardNumber"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="4242 4242 4242 4242"
              className="sm:col-span-2"
              required
            />
            <TextField label={t('portal.expiryShort')} name="expiry" autoComplete="cc-exp" placeholder="12/30" required />
            <TextField label={t('common.cvc')} name="cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" required />
            <div className="sm:col-span-4">
              <SubmitButton variant="secondary" pendingText={t('portal.adding')}>
                {t('portal.addCard')}
              </SubmitButton>
            </div>
          </ActionForm>
        )}
        {cardEntry.processor === 'sandbox' ? (
          <p className="mt-2 text-xs text-slate-500">{t('portal.sandboxCards')}</p>
        ) : cardEntry.testMode ? (
          <p className="mt-2 text-xs text-slate-500">{t('common.stripeTestCards')}</p>
        ) : null}
      </Card>

      <Card title={t('portal.history')}>
        <BillingHistory records={overview.history} text={text} />
      </Card>
      <p className="text-center text-xs text-slate-500">
        <LinkButton href={`/portal/${customer.id}`} variant="ghost" size="sm">
          {t('portal.refresh')}
        </LinkButton>
      </p>
    </main>
  );
}
