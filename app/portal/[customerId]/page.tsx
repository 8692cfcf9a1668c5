import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/errors';
import { formatMoney } from '@/lib/money/format';
import { portalOverview } from '@/lib/portal/overview';
import { previewPriceChange } from '@/lib/subscriptions/subscriptions';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { Button, LinkButton } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Badge, Card, DescriptionList, EmptyState } from '@/components/ui/layout';
import { SubmitButton } from '@/components/ui/submit-button';
import { TransientMessage } from '@/components/ui/stale-messages';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { Cell, Table } from '@/components/ui/table';
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
import { UsageOverview } from '@/components/usage/usage-overview';
import { InvoiceLinks } from '@/components/billing/invoice-links';

export const metadata: Metadata = { title: 'Customer portal', referrer: 'no-referrer' };
export const dynamic = 'force-dynamic';

const STATUS_TONE = { trialing: 'blue', active: 'green', past_due: 'red', canceled: 'gray', ended: 'gray' } as const;
const date = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export default async function PortalPage({
  params,
  searchParams,
}: {
  params: Promise<{ customerId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { customerId } = await params;
  const query = await searchParams;
  const session = await currentPortalCustomer(customerId);
  if (!session) {
    return (
      <AuthCard title="Manage your subscription" subtitle="We will email you a sign-in link at the address the seller has on file.">
        <ActionForm action={requestLinkAction} className="space-y-4" ariaLabel="Request a sign-in link">
          <input type="hidden" name="customerId" value={customerId} />
          <SubmitButton pendingText="Sending…">Email me a sign-in link</SubmitButton>
        </ActionForm>
      </AuthCard>
    );
  }
  const { customer, sellerName, sellerSuspended } = session;
  const overview = await portalOverview(getDb(), customer.merchantId, customer.id);
  const previewSub = typeof query.subscription === 'string' ? query.subscription : undefined;
  const previewPrice = typeof query.priceId === 'string' ? query.priceId : undefined;
  let preview: Awaited<ReturnType<typeof previewPriceChange>> | null = null;
  let previewError: string | null = null;
  if (previewSub && previewPrice && overview.subscriptions.some((s) => s.id === previewSub)) {
    try {
      preview = await previewPriceChange(getDb(), customer.merchantId, previewSub, previewPrice);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      previewError = error.detail;
    }
  }
  const hidden = <input type="hidden" name="customerId" value={customer.id} />;
  return (
    <main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-10">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <p className="text-sm text-slate-600">{sellerName}</p>
          <h1 className="text-2xl font-semibold text-slate-900">Your subscription</h1>
          <p className="text-sm text-slate-600">Signed in as {customer.email}</p>
        </div>
        <form action={signOutPortalAction}>
          {hidden}
          <Button variant="secondary" size="sm" type="submit">
            Sign out
          </Button>
        </form>
      </header>
      {query.changed ? (
        <TransientMessage>
          <Alert tone="success">Your plan was changed.</Alert>
        </TransientMessage>
      ) : null}
      {sellerSuspended ? (
        <Alert tone="warning">
          <strong>{sellerName} cannot accept payments right now.</strong> Plan changes, reactivation and new cards wait until they can; you will not be
          charged meanwhile, and you can still cancel.
        </Alert>
      ) : null}

      {overview.subscriptions.length === 0 ? (
        <Card>
          <EmptyState title="No subscriptions">You have no subscriptions with {sellerName}.</EmptyState>
        </Card>
      ) : null}
      {overview.subscriptions.map((sub) => (
        <Card
          key={sub.id}
          title={sub.productName}
          actions={<Badge tone={STATUS_TONE[sub.status]}>{sub.status === 'canceled' ? 'ends at period end' : sub.status.replace('_', ' ')}</Badge>}
        >
          <DescriptionList
            items={[
              ['Plan', sub.priceLabel],
              ['Current period', `${date(sub.currentPeriodStart)} – ${date(sub.currentPeriodEnd)}`],
              ...(sub.trialEnd && sub.status === 'trialing' ? ([['Trial ends', date(sub.trialEnd)]] as [string, string][]) : []),
              ...(sub.discountLabel ? ([['Discount', sub.discountLabel]] as [string, string][]) : []),
              [
                'Next charge',
                sub.nextCharge
                  ? `${sub.nextCharge.amount} on ${date(sub.nextCharge.at)}${sub.nextCharge.discount ? ` (after ${sub.nextCharge.discount} discount)` : ''}`
                  : sub.status === 'canceled'
                    ? `None — ends ${date(sub.currentPeriodEnd)}`
                    : 'None',
              ],
              ...(sub.creditBalanceLabel ? ([['Account credit', sub.creditBalanceLabel]] as [string, string][]) : []),
            ]}
          />
          {sub.status !== 'ended' ? (
            <div className="mt-6 space-y-4 border-t border-slate-100 pt-4">
              {sub.options.length > 0 && sub.status !== 'past_due' ? (
                <form method="get" className="flex flex-wrap items-end gap-3" aria-label="Preview a plan change">
                  <input type="hidden" name="subscription" value={sub.id} />
                  <label className="text-sm">
                    <span className="mb-1 block font-medium text-slate-800">Change plan</span>
                    <select name="priceId" defaultValue={previewSub === sub.id ? previewPrice : undefined} className="rounded-md border border-slate-300 px-3 py-2 text-sm">
                      {sub.options.map((o) => (
                        <option key={o.id} value={o.id}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                  </label>
                  <Button type="submit" variant="secondary">
                    Preview change
                  </Button>
                </form>
              ) : null}
              {previewSub === sub.id && previewError ? <Alert tone="error">{previewError}</Alert> : null}
              {previewSub === sub.id && preview ? (
                <div className="rounded-md border border-brand-200 bg-brand-50 p-4 text-sm" aria-label="Plan change preview">
                  <p className="font-medium text-slate-900">If you change now:</p>
                  <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-800">
                    <li>Charged today: {formatMoney(preview.amountDueNow, preview.currency)}</li>
                    {preview.net < 0 ? <li>Credit for the unused time: {formatMoney(-preview.net, preview.currency)}</li> : null}
                    <li>
                      Next renewal on {date(preview.nextRenewal.at)}: {formatMoney(preview.nextRenewal.amountDue, preview.currency)}
                      {preview.nextRenewal.discountAmount > 0 ? ` (after ${formatMoney(preview.nextRenewal.discountAmount, preview.currency)} discount)` : ''}
                    </li>
                  </ul>
                  <ActionForm action={changePlanAction} className="mt-3" ariaLabel="Confirm plan change">
                    {hidden}
                    <input type="hidden" name="subscriptionId" value={sub.id} />
                    <input type="hidden" name="priceId" value={preview.toPriceId} />
                    <input type="hidden" name="expectedVersion" value={sub.version} />
                    <SubmitButton pendingText="Changing…">Confirm change</SubmitButton>
                  </ActionForm>
                </div>
              ) : null}
              <div className="flex flex-wrap gap-3">
                {sub.status === 'canceled' ? (
                  <ActionForm action={reactivateAction} ariaLabel="Keep my subscription">
                    {hidden}
                    <input type="hidden" name="subscriptionId" value={sub.id} />
                    <SubmitButton pendingText="Saving…">Keep my subscription</SubmitButton>
                  </ActionForm>
                ) : (
                  <ActionForm action={cancelAtPeriodEndAction} ariaLabel="Cancel subscription">
                    {hidden}
                    <input type="hidden" name="subscriptionId" value={sub.id} />
                    <ConfirmButton
                      question={`Cancel? Your subscription ends on ${date(sub.currentPeriodEnd)} and you will not be charged again.`}
                      confirmLabel="Yes, cancel at period end"
                    >
                      Cancel at period end
                    </ConfirmButton>
                  </ActionForm>
                )}
              </div>
            </div>
          ) : null}
        </Card>
      ))}

      <UsageOverview merchantId={customer.merchantId} customerId={customer.id} audience="customer" />

      <Card title="Payment methods">
        {overview.paymentMethods.length === 0 ? <EmptyState title="No saved cards" /> : null}
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
                    <Badge tone="blue">Default</Badge>
                  </span>
                ) : null}
              </span>
              <span className="flex gap-2">
                {/* Mounted for the default card too, so "Default card updated." stays with the card it is about. */}
                <ActionForm action={setDefaultCardAction} ariaLabel={`Make card ${method.last4} default`}>
                  {hidden}
                  <input type="hidden" name="paymentMethodId" value={method.id} />
                  {!method.isDefault ? (
                    <SubmitButton variant="secondary" size="sm">
                      Make default
                    </SubmitButton>
                  ) : null}
                </ActionForm>
                <ActionForm action={removeCardAction} ariaLabel={`Remove card ${method.last4}`}>
                  {hidden}
                  <input type="hidden" name="paymentMethodId" value={method.id} />
                  <SubmitButton variant="ghost" size="sm">
                    Remove
                  </SubmitButton>
                </ActionForm>
              </span>
            </li>
          ))}
        </ul>
        <ActionForm action={addCardAction} className="mt-4 grid gap-3 sm:grid-cols-4" ariaLabel="Add a card">
          {hidden}
          <TextField label="Card number" name="cardNumber" inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" className="sm:col-span-2" required />
          <TextField label="Expiry (MM/YY)" name="expiry" autoComplete="cc-exp" placeholder="12/30" required />
          <TextField label="CVC" name="cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" required />
          <div className="sm:col-span-4">
            <SubmitButton variant="secondary" pendingText="Adding…">
              Add card
            </SubmitButton>
          </div>
        </ActionForm>
        <p className="mt-2 text-xs text-slate-500">Sandbox: use test cards such as 4242 4242 4242 4242.</p>
      </Card>

      <Card title="Billing history">
        {overview.history.length === 0 ? (
          <EmptyState title="No charges yet" />
        ) : (
          <Table caption="Billing history" head={['Date', 'Description', 'Amount', 'Status', 'Invoice']}>
            {overview.history.map((r) => (
              <tr key={r.id}>
                <Cell>{date(r.date)}</Cell>
                <Cell>{r.description}</Cell>
                <Cell className="tabular-nums">
                  {r.amount}
                  {r.discount ? <span className="block text-xs text-slate-600">after {r.discount} discount</span> : null}
                </Cell>
                <Cell>
                  <Badge tone={r.status === 'paid' ? 'green' : 'gray'}>{r.status}</Badge>
                </Cell>
                <Cell>
                  <InvoiceLinks page={r.invoicePath} pdf={r.invoicePdfPath} />
                </Cell>
              </tr>
            ))}
          </Table>
        )}
      </Card>
      <p className="text-center text-xs text-slate-500">
        <LinkButton href={`/portal/${customer.id}`} variant="ghost" size="sm">
          Refresh
        </LinkButton>
      </p>
    </main>
  );
}
