import crypto from 'node:crypto';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { getCustomer } from '@/lib/customers/customers';
import { getPayment } from '@/lib/payments/payments';
import { formatMoney } from '@/lib/money/format';
import { minorToDecimalText } from '@/lib/money/parse';
import { currencyExponent } from '@/lib/money/currencies';
import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { Card, DescriptionList, PageHeader } from '@/components/ui/layout';
import { currentSeller } from '../../../session';
import { roleCan } from '@/lib/merchants/roles';
import { PaymentStatusBadge } from '../../../../../../components/console/payment-status-badge';
import { refundAction } from '../actions';
import { ConfirmAmountButton } from '@/components/ui/confirm-amount-button';
import { ProcessorReference } from '@/components/console/processor-reference';
import { InvoiceLinks } from '@/components/billing/invoice-links';
import { invoiceOfPayment } from '@/lib/billing/invoices';
import { DisputeStatusBadge, disputeReasonLabel } from '../../disputes/status-badge';

export const metadata: Metadata = { title: 'Payment' };

interface Step {
  at: string;
  title: string;
  detail?: string;
  tone: 'green' | 'red' | 'gray' | 'blue';
}

const DOT = { green: 'bg-green-600', red: 'bg-red-600', gray: 'bg-slate-400', blue: 'bg-brand-600' };

export default async function PaymentPage({ params }: { params: Promise<{ paymentId: string }> }) {
  const { merchant, user } = await currentSeller('view');
  const { paymentId } = await params;
  const db = getDb();
  const payment = await getPayment(db, merchant.id, paymentId).catch((error) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  });
  const customer = await getCustomer(db, merchant.id, payment.customerId).catch(() => undefined);
  const invoice = await invoiceOfPayment(db, merchant.id, payment.id);
  const money = (amount: number) => formatMoney(amount, payment.currency);
  const pendingRefunds = payment.refunds.filter((r) => r.status === 'requested').reduce((sum, r) => sum + r.amount, 0);
  const refundable = payment.amount - payment.amountRefunded - pendingRefunds;
  const canRefund = (payment.status === 'succeeded' || payment.status === 'partially_refunded') && refundable > 0;
  const card = payment.card ? `${payment.card.brand[0]!.toUpperCase()}${payment.card.brand.slice(1)} •••• ${payment.card.last4}` : '—';

  const steps: Step[] = [{ at: payment.createdAt, title: 'Payment created', detail: `${money(payment.amount)} · ${card}`, tone: 'gray' }];
  if (payment.status === 'failed') {
    steps.push({
      at: payment.settledAt ?? payment.updatedAt,
      title: 'Payment failed',
      detail: payment.failureMessage ?? payment.failureCode ?? undefined,
      tone: 'red',
    });
  } else if (payment.status === 'unknown') {
    steps.push({
      at: payment.updatedAt,
      title: 'Outcome unknown',
      detail: 'The processor did not answer; the payment is settled by reconciliation.',
      tone: 'gray',
    });
  } else if (payment.status !== 'pending') {
    steps.push({ at: payment.settledAt ?? payment.updatedAt, title: 'Payment succeeded', detail: money(payment.amount), tone: 'green' });
  }
  for (const dispute of payment.disputes) {
    steps.push({
      at: dispute.createdAt,
      title: `Disputed by the customer (${money(dispute.amount)})`,
      detail: disputeReasonLabel(dispute.reason),
      tone: 'red',
    });
    if (dispute.closedAt) {
      const outcome = dispute.status === 'won' ? 'Dispute won' : dispute.status === 'lost' ? 'Dispute lost' : 'Dispute closed';
      steps.push({ at: dispute.closedAt, title: outcome, tone: dispute.status === 'lost' ? 'red' : 'blue' });
    }
  }
  for (const refund of payment.refunds) {
    steps.push({ at: refund.createdAt, title: `Refund of ${money(refund.amount)} requested`, detail: refund.reason ?? undefined, tone: 'gray' });
    if (refund.status === 'succeeded') steps.push({ at: refund.updatedAt, title: `Refund of ${money(refund.amount)} succeeded`, tone: 'blue' });
    if (refund.status === 'failed')
      steps.push({ at: refund.updatedAt, title: `Refund of ${money(refund.amount)} failed`, detail: refund.failureMessage ?? undefined, tone: 'red' });
  }

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/merchant/payments" className="text-brand-700 hover:underline">
          ← Payments
        </Link>
      </p>
      <PageHeader title={money(payment.amount)} description={payment.description} actions={<PaymentStatusBadge status={payment.status} />} />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_360px]">
        <div className="space-y-6">
          <Card title="Details">
            <DescriptionList
              items={[
                [
                  'Id',
                  <span className="font-mono" key="id">
                    {payment.id}
                  </span>,
                ],
                ['Amount', money(payment.amount)],
                ['Refunded', money(payment.amountRefunded)],
                [
                  'Customer',
                  <Link key="c" href={`/merchant/customers/${payment.customerId}`} className="text-brand-700 hover:underline">
                    {customer?.email ?? customer?.name ?? payment.customerId}
                  </Link>,
                ],
                ['Card', card],
                ...(invoice
                  ? [
                      [
                        'Invoice',
                        <span key="invoice" className="flex flex-col gap-1">
                          <span className="inline-flex flex-wrap items-center gap-2">
                            <span className="font-mono">{invoice.number ?? invoice.id}</span>
                            <InvoiceLinks page={invoice.hostedInvoiceUrl} pdf={invoice.invoicePdfUrl} />
                          </span>
                          {invoice.creditNotes.map((note) => (
                            <span key={note.id} className="inline-flex flex-wrap items-center gap-2 text-slate-600">
                              Credit note <span className="font-mono">{note.number ?? note.id}</span> · {money(-note.amount)}
                              <InvoiceLinks page={note.hostedUrl} pdf={note.pdfUrl} />
                            </span>
                          ))}
                        </span>,
                      ] as [string, React.ReactNode],
                    ]
                  : []),
                ...(payment.disputes.length > 0
                  ? [
                      [
                        'Disputes',
                        <span key="disputes" className="flex flex-col gap-1">
                          {payment.disputes.map((dispute) => (
                            <span key={dispute.id} className="inline-flex flex-wrap items-center gap-2">
                              <Link href={`/merchant/disputes/${dispute.id}`} className="text-brand-700 hover:underline">
                                {money(dispute.amount)} · {disputeReasonLabel(dispute.reason)}
                              </Link>
                              <DisputeStatusBadge status={dispute.status} />
                            </span>
                          ))}
                        </span>,
                      ] as [string, React.ReactNode],
                    ]
                  : []),
                ['Processor', <ProcessorReference key="processor" processor={payment.processor} />],
                [
                  'Checkout',
                  payment.checkoutId ? (
                    <span className="font-mono" key="co">
                      {payment.checkoutId}
                    </span>
                  ) : (
                    '—'
                  ),
                ],
                ['Created', formatConsoleDateTime(payment.createdAt, merchant.timeZone)],
              ]}
            />
          </Card>
          <Card title="Timeline">
            <ol className="relative space-y-4 border-l border-slate-200 pl-5" aria-label="Payment timeline">
              {steps.map((step, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the timeline is built once per render in time order and never reordered; two steps may share time and title.
                <li key={index} className="relative">
                  <span aria-hidden className={`absolute top-1.5 -left-[26px] h-2.5 w-2.5 rounded-full ring-4 ring-white ${DOT[step.tone]}`} />
                  <p className="text-sm font-medium text-slate-900">{step.title}</p>
                  {step.detail ? <p className="text-sm text-slate-600">{step.detail}</p> : null}
                  <p className="text-xs text-slate-500">
                    <time dateTime={step.at}>{formatConsoleDateTime(step.at, merchant.timeZone)}</time>
                  </p>
                </li>
              ))}
            </ol>
          </Card>
        </div>
        <Card title="Refund" className="h-fit">
          {!roleCan(user.role, 'refunds:create') ? (
            <p className="text-sm text-slate-600">Your role cannot refund payments. Ask an Owner or Admin.</p>
          ) : canRefund ? (
            <ActionForm action={refundAction} className="space-y-4" ariaLabel="Refund">
              <p className="text-sm text-slate-600">
                Up to <strong data-testid="refundable">{money(refundable)}</strong> can still be refunded.
              </p>
              <input type="hidden" name="paymentId" value={payment.id} />
              {/* A fresh key on every render: submitting the same form twice refunds once. */}
              <input type="hidden" name="refundKey" value={crypto.randomBytes(16).toString('base64url')} />
              <TextField
                label={`Amount (${payment.currency})`}
                name="amount"
                inputMode={currencyExponent(payment.currency) ? 'decimal' : 'numeric'}
                required
                hint={`Type the amount to refund: up to ${minorToDecimalText(refundable, payment.currency)}; less refunds part of the payment.`}
              />
              <TextField label="Reason" name="reason" maxLength={500} hint="Optional; kept with the refund." />
              <ConfirmAmountButton currency={payment.currency} verb="Refund" consequence="to the customer? Refunds cannot be undone." />
            </ActionForm>
          ) : (
            <p className="text-sm text-slate-600">
              {payment.status === 'refunded' ? 'This payment has been refunded in full.' : 'Only a succeeded payment can be refunded.'}
            </p>
          )}
        </Card>
      </div>
    </>
  );
}
