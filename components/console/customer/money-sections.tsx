import Link from 'next/link';
import { formatMoney } from '@/lib/money/format';
import { priceTerms, type PriceTermsInput } from '@/lib/catalog/price-terms';
import { formatConsoleDate, formatConsoleDateTime } from '@/lib/server/web/console-time';
import { Badge } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { PaymentStatusBadge } from '@/components/console/payment-status-badge';
import { InvoiceLinks } from '@/components/billing/invoice-links';
import { HubSection, hubLink } from './hub-section';
import { RecordLines } from '../upcoming-invoice';
import type { BillingLine } from '../billing-lines';
import { recordStatusWord, statusWord } from '@/lib/server/web/status-words';
import { documentTaxLines, type DocumentTaxes } from '@/lib/billing/document-parts';
import { customerText } from '@/lib/i18n/customer-text';

// The customer page's money: subscriptions, payments, refunds and billing records, newest first,
// each row linking to its own page. The lists are the first few; "All" links open the full lists.

const SUBSCRIPTION_TONE = { trialing: 'blue', active: 'green', past_due: 'red', canceled: 'gray', ended: 'gray' } as const;
const REFUND_TONE = { requested: 'gray', succeeded: 'green', failed: 'red' } as const;
const RECORD_TONE = { open: 'blue', paid: 'green', void: 'gray', uncollectible: 'red' } as const;

type Plan = PriceTermsInput & { productName: string };

export function CustomerSubscriptions({
  subscriptions,
  plans,
  timeZone,
}: {
  subscriptions: { id: string; status: keyof typeof SUBSCRIPTION_TONE; priceId: string; currentPeriodEnd: string; cancelAtPeriodEnd: boolean }[];
  plans: Map<string, Plan>;
  timeZone: string;
}) {
  return (
    <HubSection id="subscriptions" title="Subscriptions" empty={subscriptions.length ? undefined : 'No subscriptions.'}>
      <Table caption="Subscriptions" head={['Plan', 'Status', 'Current period ends', 'Subscription']}>
        {subscriptions.map((sub) => {
          const plan = plans.get(sub.priceId);
          return (
            <tr key={sub.id}>
              <Cell>
                {plan ? (
                  <>
                    <span className="font-medium">{plan.productName}</span> <span className="text-slate-600">{priceTerms(plan)}</span>
                  </>
                ) : (
                  <span className="font-mono text-xs">{sub.priceId}</span>
                )}
              </Cell>
              <Cell>
                <Badge tone={SUBSCRIPTION_TONE[sub.status]}>{statusWord('subscription', sub.status)}</Badge>
                {sub.cancelAtPeriodEnd && sub.status !== 'ended' ? <span className="ml-1 text-xs text-slate-600">ends at period end</span> : null}
              </Cell>
              <Cell className="whitespace-nowrap">{formatConsoleDate(sub.currentPeriodEnd, timeZone)}</Cell>
              <Cell>
                <Link href={`/merchant/subscriptions/${sub.id}`} prefetch={false} className={hubLink}>
                  {sub.id}
                </Link>
              </Cell>
            </tr>
          );
        })}
      </Table>
    </HubSection>
  );
}

export function CustomerPayments({
  payments,
  allHref,
  timeZone,
}: {
  payments: {
    id: string;
    status: Parameters<typeof PaymentStatusBadge>[0]['status'];
    amount: number;
    currency: string;
    description: string;
    createdAt: string;
  }[];
  allHref?: string;
  timeZone: string;
}) {
  return (
    <HubSection
      id="payments"
      title="Payments"
      more={allHref ? { href: allHref, label: 'All payments' } : undefined}
      empty={payments.length ? undefined : 'No payments.'}
    >
      <Table caption="Payments" head={['Amount', 'Status', 'Description', 'Date']}>
        {payments.map((payment) => (
          <tr key={payment.id}>
            <Cell className="whitespace-nowrap">
              <Link href={`/merchant/payments/${payment.id}`} prefetch={false} className="font-medium text-brand-700 hover:underline">
                {formatMoney(payment.amount, payment.currency)}
              </Link>
            </Cell>
            <Cell>
              <PaymentStatusBadge status={payment.status} />
            </Cell>
            <Cell>{payment.description}</Cell>
            <Cell className="whitespace-nowrap">{formatConsoleDateTime(payment.createdAt, timeZone)}</Cell>
          </tr>
        ))}
      </Table>
    </HubSection>
  );
}

export function CustomerRefunds({
  refunds,
  timeZone,
}: {
  refunds: { id: string; paymentId: string; status: keyof typeof REFUND_TONE; amount: number; currency: string; reason: string | null; createdAt: string }[];
  timeZone: string;
}) {
  return (
    <HubSection id="refunds" title="Refunds" empty={refunds.length ? undefined : 'No refunds.'}>
      <Table caption="Refunds" head={['Amount', 'Status', 'Reason', 'Payment', 'Date']}>
        {refunds.map((refund) => (
          <tr key={refund.id}>
            <Cell className="font-medium whitespace-nowrap">{formatMoney(refund.amount, refund.currency)}</Cell>
            <Cell>
              <Badge tone={REFUND_TONE[refund.status]}>{statusWord('refund', refund.status)}</Badge>
            </Cell>
            <Cell>{refund.reason?.replaceAll('_', ' ') ?? '—'}</Cell>
            <Cell>
              <Link href={`/merchant/payments/${refund.paymentId}`} prefetch={false} className={hubLink}>
                {refund.paymentId}
              </Link>
            </Cell>
            <Cell className="whitespace-nowrap">{formatConsoleDateTime(refund.createdAt, timeZone)}</Cell>
          </tr>
        ))}
      </Table>
    </HubSection>
  );
}

export function CustomerBillingRecords({
  records,
  timeZone,
}: {
  records: {
    id: string;
    status: keyof typeof RECORD_TONE;
    amount: number;
    currency: string;
    description: string;
    paymentId: string | null;
    createdAt: string;
    hostedInvoiceUrl: string;
    invoicePdfUrl: string;
    lineItems: BillingLine[];
    number: string | null;
    taxes: DocumentTaxes;
    taxExempt: string;
    creditNotes: CreditNoteSummary[];
  }[];
  timeZone: string;
}) {
  return (
    <HubSection id="billing-records" title="Billing records" empty={records.length ? undefined : 'No billing records.'}>
      <Table caption="Billing records" head={['Description', 'Amount', 'Status', 'Payment', 'Date']}>
        {records.map((record) => (
          <tr key={record.id}>
            <Cell>
              {record.number ? <span className="block font-mono font-medium">{record.number}</span> : null}
              {record.description}
              <span className="block font-mono text-xs text-slate-600">{record.id}</span>
              <RecordLines lines={record.lineItems.filter((line) => line.kind !== 'tax')} currency={record.currency} timeZone={timeZone} />
              <RecordTaxes taxes={record.taxes} currency={record.currency} reverseCharge={record.taxExempt === 'reverse'} />
              <InvoiceLinks page={record.hostedInvoiceUrl} pdf={record.invoicePdfUrl} />
              {record.creditNotes.map((note) => (
                <span key={note.id} className="block text-xs text-slate-600">
                  Credit note{' '}
                  <a href={note.hostedUrl} className={hubLink}>
                    {note.number ?? note.id}
                  </a>{' '}
                  · {formatMoney(-note.amount, note.currency)} · {formatConsoleDate(note.createdAt, timeZone)}
                </span>
              ))}
            </Cell>
            <Cell className="whitespace-nowrap">{formatMoney(record.amount, record.currency)}</Cell>
            <Cell>
              <Badge tone={RECORD_TONE[record.status]}>
                {recordStatusWord(
                  record.status,
                  record.amount,
                  record.creditNotes.reduce((sum, note) => sum + note.amount, 0),
                )}
              </Badge>
            </Cell>
            <Cell>
              {record.paymentId ? (
                <Link href={`/merchant/payments/${record.paymentId}`} prefetch={false} className={hubLink}>
                  {record.paymentId}
                </Link>
              ) : (
                '—'
              )}
            </Cell>
            <Cell className="whitespace-nowrap">{formatConsoleDateTime(record.createdAt, timeZone)}</Cell>
          </tr>
        ))}
      </Table>
    </HubSection>
  );
}

interface CreditNoteSummary {
  id: string;
  number: string | null;
  invoiceNumber: string | null;
  amount: number;
  currency: string;
  taxAmount: number;
  hostedUrl: string;
  pdfUrl: string;
  createdAt: string;
}

/** A record's tax per rate, as its invoice prints it (English): "VAT 20% on $10.00: $2.00". */
function RecordTaxes({ taxes, currency, reverseCharge }: { taxes: DocumentTaxes; currency: string; reverseCharge: boolean }) {
  const text = customerText('en');
  const lines = documentTaxLines(taxes, (amount) => formatMoney(amount, currency), text);
  return (
    <>
      {lines.map((line) => (
        <span key={line.label} className="block text-xs text-slate-600">
          {line.label}: {line.amount}
        </span>
      ))}
      {reverseCharge ? <span className="block text-xs text-slate-600">Reverse charge: the buyer accounts for VAT.</span> : null}
    </>
  );
}

/** The customer's credit notes, newest first, each linking its hosted page and PDF. */
export function CustomerCreditNotes({ creditNotes, timeZone }: { creditNotes: CreditNoteSummary[]; timeZone: string }) {
  return (
    <HubSection id="credit-notes" title="Credit notes" empty={creditNotes.length ? undefined : 'No credit notes.'}>
      <Table caption="Credit notes" head={['Number', 'Invoice', 'Amount', 'Tax reversed', 'Date']}>
        {creditNotes.map((note) => (
          <tr key={note.id}>
            <Cell>
              <span className="font-mono font-medium">{note.number ?? note.id}</span>
              <InvoiceLinks page={note.hostedUrl} pdf={note.pdfUrl} />
            </Cell>
            <Cell className="font-mono">{note.invoiceNumber ?? '—'}</Cell>
            <Cell className="whitespace-nowrap">{formatMoney(note.amount, note.currency)}</Cell>
            <Cell className="whitespace-nowrap">{formatMoney(note.taxAmount, note.currency)}</Cell>
            <Cell className="whitespace-nowrap">{formatConsoleDateTime(note.createdAt, timeZone)}</Cell>
          </tr>
        ))}
      </Table>
    </HubSection>
  );
}
