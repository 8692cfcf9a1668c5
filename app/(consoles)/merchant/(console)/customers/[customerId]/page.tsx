import type { Metadata } from 'next';
import { ProcessorReference } from '@/components/console/processor-reference';
import { formatConsoleDate, formatConsoleDateTime } from '@/lib/server/web/console-time';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { getCustomer } from '@/lib/customers/customers';
import { listCustomValues } from '@/lib/customers/custom-values';
import { describePrices, listCustomerBillingRecords, listCustomerEvents, listCustomerRefunds } from '@/lib/billing/customer-activity';
import { listPaymentMethods } from '@/lib/payments/payment-methods';
import { listPayments } from '@/lib/payments/payments';
import { listSubscriptions } from '@/lib/subscriptions/queries';
import { roleCan } from '@/lib/merchants/roles';
import { metadataLines } from '@/lib/server/web/form-metadata';
import { Badge, Card, DescriptionList, EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { CustomerEditForm, CustomValueForm } from '@/app/(consoles)/merchant/customer-forms';
import {
  CustomerBillingRecords,
  CustomerCreditNotes,
  CustomerPayments,
  CustomerRefunds,
  CustomerSubscriptions,
} from '@/components/console/customer/money-sections';
import { listCreditNotes } from '@/lib/payments/credit-notes';
import { CustomerEvents } from '@/components/console/customer/customer-events';
import { UsageOverview } from '@/components/usage/usage-overview';
import { getCustomerUsageOverview } from '@/lib/usage/customer-usage';
import { currentSeller } from '../../../session';
import { findUpcomingInvoice } from '@/lib/subscriptions/upcoming-invoice';
import { UpcomingInvoiceSummary } from '@/components/console/upcoming-invoice';
import { HubSection } from '@/components/console/customer/hub-section';
import { NewSubscriptionForm } from '@/app/(consoles)/merchant/(console)/customers/[customerId]/new-subscription-form';
import { CreditGrantForm, EntitlementOverrideForm } from '@/app/(consoles)/merchant/entitlement-forms';
import { RoleGate } from '@/components/console/role-gate';
import { PaymentMethodActions } from '@/app/(consoles)/merchant/(console)/customers/[customerId]/payment-method-actions';
import { Alert } from '@/components/ui/alert';
import { listRecurringPrices } from '@/lib/catalog/prices';
import { priceTerms } from '@/lib/catalog/price-terms';
import { randomUUID } from 'node:crypto';

export const metadata: Metadata = { title: 'Customer' };

/** How many of each kind the hub shows; the "All" links open the full lists. */
const RECENT = 10;

export default async function CustomerPage({
  params,
  searchParams,
}: {
  params: Promise<{ customerId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchant, user } = await currentSeller('view');
  const { customerId } = await params;
  const query = await searchParams;
  const db = getDb();
  const customer = await getCustomer(db, merchant.id, customerId).catch((error) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  });
  const valuesPage = pageParam(query.valuesPage);
  const methodsPage = pageParam(query.methodsPage);
  const recent = { page: 1, pageSize: RECENT, orderBy: 'createdAt', orderDirection: 'desc' } as const;
  const seesEvents = roleCan(user.role, 'developers:read');
  const [values, methods, subscriptions, payments, refunds, records, events, usage, creditNotes, recurringPrices, cards] = await Promise.all([
    listCustomValues(db, merchant.id, customerId, { page: valuesPage, pageSize: 20, orderBy: 'key', orderDirection: 'asc' }),
    listPaymentMethods(db, merchant.id, customerId, { page: methodsPage, pageSize: 10, orderDirection: 'desc' }),
    listSubscriptions(db, merchant.id, { ...recent, customerId }),
    listPayments(db, merchant.id, { ...recent, customerId }),
    listCustomerRefunds(db, merchant.id, customerId, RECENT),
    listCustomerBillingRecords(db, merchant.id, customerId, RECENT),
    seesEvents ? listCustomerEvents(db, merchant.id, customerId, RECENT) : [],
    getCustomerUsageOverview(db, merchant.id, customerId, { history: true }),
    listCreditNotes(db, merchant.id, { ...recent, customerId }),
    listRecurringPrices(db, merchant.id),
    listPaymentMethods(db, merchant.id, customerId, { page: 1, pageSize: 100, orderDirection: 'desc' }),
  ]);
  const plans = await describePrices(
    db,
    merchant.id,
    subscriptions.data.map((sub) => sub.priceId),
  );
  const upcoming = (
    await Promise.all(
      subscriptions.data.filter((sub) => sub.status !== 'ended' && sub.status !== 'canceled').map((sub) => findUpcomingInvoice(db, merchant.id, sub.id)),
    )
  ).filter((invoice) => invoice !== null);
  const canEdit = roleCan(user.role, 'customers:write');
  const priceChoice = (price: (typeof recurringPrices)[number]) => ({ value: price.id, label: `${price.productName}: ${priceTerms(price)}` });
  // A spend limit is counted in the currency the customer is billed in: that of its newest subscription.
  const billedCurrency = subscriptions.data.map((sub) => plans.get(sub.priceId)?.currency).find(Boolean) ?? null;
  const base = `/merchant/customers/${customer.id}`;
  const metadataEntries = Object.entries(customer.metadata);
  const tz = merchant.timeZone;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/merchant/customers" className="text-brand-700 hover:underline">
          ← Customers
        </Link>
      </p>
      <PageHeader title={customer.name ?? customer.email ?? customer.id} description={customer.email ?? undefined} />
      {query.created ? <Alert tone="success">Customer created.</Alert> : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Details">
          <DescriptionList
            items={[
              [
                'Id',
                <span className="font-mono" key="id">
                  {customer.id}
                </span>,
              ],
              ['Email', customer.email ?? '—'],
              ['External id', customer.externalId ?? '—'],
              [
                'Status',
                customer.status === 'active' ? (
                  <Badge tone="green" key="s">
                    Active
                  </Badge>
                ) : (
                  <Badge key="s">Archived</Badge>
                ),
              ],
              ['Created', formatConsoleDateTime(customer.createdAt, tz)],
              ...metadataEntries.map(([key, value]): [string, string] => [`metadata.${key}`, value]),
            ]}
          />
        </Card>
        <Card title="Edit customer">
          <RoleGate role={user.role} permission="customers:write">
            <CustomerEditForm customer={customer} metadataText={metadataLines(customer.metadata)} />
          </RoleGate>
        </Card>
      </div>
      <div className="mt-6 space-y-6">
        <CustomerSubscriptions subscriptions={subscriptions.data} plans={plans} timeZone={tz} />
        <Card title="New subscription">
          <RoleGate role={user.role} permission="subscriptions:write">
            <NewSubscriptionForm
              customerId={customer.id}
              prices={recurringPrices.filter((price) => price.usageType === 'licensed').map(priceChoice)}
              meteredPrices={recurringPrices.filter((price) => price.usageType === 'metered').map(priceChoice)}
              paymentMethods={cards.data.map((card) => ({
                value: card.id,
                label: `${card.brand} •••• ${card.last4}, expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear}${card.isDefault ? ' (default)' : ''}`,
              }))}
              formKey={randomUUID()}
            />
          </RoleGate>
        </Card>
        {upcoming.length > 0 ? (
          <HubSection id="upcoming-invoices" title={upcoming.length === 1 ? 'Upcoming invoice' : 'Upcoming invoices'}>
            <div className="space-y-6">
              {upcoming.map((invoice) => (
                <div key={invoice.subscriptionId}>
                  {upcoming.length > 1 ? <h3 className="mb-1 font-mono text-xs text-slate-600">{invoice.subscriptionId}</h3> : null}
                  <UpcomingInvoiceSummary upcoming={invoice} timeZone={tz} />
                </div>
              ))}
            </div>
          </HubSection>
        ) : null}
        <CustomerPayments
          payments={payments.data}
          timeZone={tz}
          allHref={payments.totalCount > RECENT ? `/merchant/payments?customer=${encodeURIComponent(customer.id)}` : undefined}
        />
        <div className="grid gap-6 xl:grid-cols-2">
          <CustomerRefunds refunds={refunds} timeZone={tz} />
          <Card title="Payment methods">
            {methods.totalCount === 0 ? (
              <EmptyState title="No saved payment methods" />
            ) : (
              <>
                <ul className="divide-y divide-slate-100">
                  {methods.data.map((method) => (
                    <li key={method.id} className="flex items-center justify-between gap-3 py-2 text-sm">
                      <span className="space-y-1">
                        <span className="block">
                          <span className="font-medium capitalize">{method.brand}</span> •••• {method.last4}
                          <span className="ml-2 text-slate-600">
                            expires {String(method.expMonth).padStart(2, '0')}/{method.expYear}
                          </span>
                        </span>
                        <span className="block text-xs text-slate-600">
                          <ProcessorReference processor={method.processor} />
                        </span>
                      </span>
                      <span className="flex flex-wrap items-center justify-end gap-2">
                        {method.isDefault ? <Badge tone="blue">Default</Badge> : null}
                        {canEdit ? <PaymentMethodActions customerId={customer.id} paymentMethodId={method.id} isDefault={method.isDefault} /> : null}
                      </span>
                    </li>
                  ))}
                </ul>
                <Pagination {...methods} basePath={base} query={{ valuesPage: String(valuesPage) }} param="methodsPage" label="Payment method pages" />
              </>
            )}
          </Card>
        </div>
        <CustomerBillingRecords records={records} timeZone={tz} />
        <CustomerCreditNotes creditNotes={creditNotes.data} timeZone={tz} />
        <UsageOverview usage={usage} audience="seller" />
        <div className="grid gap-6 lg:grid-cols-2">
          <Card title="Entitlement override">
            <p className="mb-3 text-sm text-slate-600">Wins over the price’s policy for this customer; a second override of a feature replaces the first.</p>
            <RoleGate role={user.role} permission="subscriptions:write">
              <EntitlementOverrideForm customerId={customer.id} currency={billedCurrency} />
            </RoleGate>
          </Card>
          <Card title="Grant credits">
            <p className="mb-3 text-sm text-slate-600">Credits pay for a feature’s usage before its limit counts.</p>
            <RoleGate role={user.role} permission="subscriptions:write">
              <CreditGrantForm customerId={customer.id} />
            </RoleGate>
          </Card>
        </div>
        {seesEvents ? <CustomerEvents events={events} timeZone={tz} /> : null}
        <section aria-labelledby="values-heading">
          <h2 id="values-heading" className="mb-3 text-lg font-semibold">
            Custom values
          </h2>
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_360px]">
            <div className="min-w-0">
              {values.totalCount === 0 ? (
                <EmptyState title="No custom values">Key–value data your backend (or you, with the form) keeps on this customer.</EmptyState>
              ) : (
                <>
                  <Table caption="Custom values" head={['Key', 'Value', 'Updated']}>
                    {values.data.map((value) => (
                      <tr key={value.key}>
                        <Cell className="font-mono text-xs">{value.key}</Cell>
                        <Cell className="break-all">{value.value}</Cell>
                        <Cell className="whitespace-nowrap">{formatConsoleDate(value.updatedAt, tz)}</Cell>
                      </tr>
                    ))}
                  </Table>
                  <Pagination {...values} basePath={base} query={{ methodsPage: String(methodsPage) }} param="valuesPage" label="Custom value pages" />
                </>
              )}
            </div>
            <Card title="Set a custom value" className="h-fit">
              <RoleGate role={user.role} permission="customers:write">
                <CustomValueForm customerId={customer.id} />
              </RoleGate>
            </Card>
          </div>
        </section>
      </div>
    </>
  );
}
