import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { getAccountSettings } from '@/lib/merchants/settings';
import { listTaxRates } from '@/lib/tax/tax-rates';
import { roleCan } from '@/lib/merchants/roles';
import { ActionForm } from '@/components/ui/action-form';
import { SelectField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { Badge, Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { ActiveToggleForm } from '@/components/console/active-toggle-form';
import { currentSeller } from '../../session';
import { createTaxRateAction, setDefaultTaxRatesAction, setTaxRateActiveAction } from './actions';

export const metadata: Metadata = { title: 'Tax rates' };

export default async function TaxRatesPage() {
  const { merchant, user } = await currentSeller('view');
  const db = getDb();
  const [rates, settings] = await Promise.all([
    listTaxRates(db, merchant.id, { page: 1, pageSize: 100, orderBy: 'createdAt', orderDirection: 'asc' }),
    getAccountSettings(db, merchant.id),
  ]);
  const canEdit = roleCan(user.role, 'catalog:write');
  const canSetDefaults = roleCan(user.role, 'settings:write');
  const active = rates.data.filter((rate) => rate.active);
  const defaults = new Set(settings.defaultTaxRateIds);

  return (
    <>
      <PageHeader
        title="Tax rates"
        description="What invoices charge as tax. A price uses its own rates, else your defaults; a rate with a country applies only to customers whose billing address is there."
      />
      <div className="space-y-8">
        <div className="grid items-start gap-6 lg:grid-cols-2">
          {canEdit ? (
            <Card title="New tax rate">
              <ActionForm action={createTaxRateAction} className="space-y-4" ariaLabel="New tax rate">
                <div className="grid grid-cols-[minmax(0,1fr)_120px] gap-3">
                  <TextField label="Name on invoices" name="displayName" required maxLength={50} placeholder="VAT" />
                  <TextField label="Percent" name="percentage" required inputMode="decimal" placeholder="20" hint="Up to 4 decimals." />
                </div>
                <SelectField
                  label="Included in prices?"
                  name="inclusive"
                  options={[
                    { value: 'true', label: 'Inclusive: the tax is inside the price (VAT-style)' },
                    { value: 'false', label: 'Exclusive: added on top (sales-tax-style)' },
                  ]}
                />
                <div className="grid grid-cols-2 gap-3">
                  <TextField
                    label="Country"
                    name="country"
                    maxLength={2}
                    placeholder="DE"
                    hint="Two letters; empty: any country."
                    className="[&_input]:uppercase"
                  />
                  <TextField label="Region" name="jurisdiction" maxLength={100} placeholder="CA" hint="Optional, printed on invoices." />
                </div>
                <p className="text-xs text-slate-600">The percentage and inclusiveness never change once created: archive a rate and create another.</p>
                <SubmitButton pendingText="Creating…">Create tax rate</SubmitButton>
              </ActionForm>
            </Card>
          ) : null}
          <Card title="Default rates">
            {active.length === 0 ? (
              <p className="text-sm text-slate-600">Create a tax rate first.</p>
            ) : (
              <ActionForm action={setDefaultTaxRatesAction} className="space-y-3" ariaLabel="Default tax rates">
                <p className="text-sm text-slate-600">For prices that name no rates of their own.</p>
                {active.map((rate) => (
                  <label key={rate.id} className="flex items-center gap-2 text-sm text-slate-800">
                    <input
                      type="checkbox"
                      name="defaultTaxRateIds"
                      value={rate.id}
                      defaultChecked={defaults.has(rate.id)}
                      disabled={!canSetDefaults}
                      className="h-4 w-4 accent-brand-600"
                    />
                    {rate.displayName} {rate.percentage}% {rate.inclusive ? '(inclusive)' : '(exclusive)'}
                    {rate.country ? ` · ${rate.country}` : ' · any country'}
                  </label>
                ))}
                {canSetDefaults ? (
                  <SubmitButton pendingText="Saving…">Save defaults</SubmitButton>
                ) : (
                  <p className="text-xs text-slate-600">Only an Owner or Admin changes the defaults.</p>
                )}
              </ActionForm>
            )}
          </Card>
        </div>
        <section aria-labelledby="rates-heading">
          <h2 id="rates-heading" className="mb-3 text-lg font-semibold">
            Rates
          </h2>
          {rates.totalCount === 0 ? (
            <EmptyState title="No tax rates yet">Create one with the form; prices charge no tax until then.</EmptyState>
          ) : (
            <Table caption="Tax rates" head={['Rate', 'Kind', 'Where', 'Status', canEdit ? 'Actions' : 'Default']}>
              {rates.data.map((rate) => (
                <tr key={rate.id}>
                  <Cell>
                    <span className="font-medium">
                      {rate.displayName} {rate.percentage}%
                    </span>
                    <span className="block font-mono text-xs text-slate-600">{rate.id}</span>
                  </Cell>
                  <Cell>{rate.inclusive ? 'Inclusive' : 'Exclusive'}</Cell>
                  <Cell>{[rate.country ?? 'Any country', rate.jurisdiction].filter(Boolean).join(' · ')}</Cell>
                  <Cell>
                    {rate.active ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>}
                    {defaults.has(rate.id) ? <span className="ml-2 text-xs text-slate-600">Default</span> : null}
                  </Cell>
                  <Cell className="text-right">
                    {canEdit ? (
                      <ActiveToggleForm
                        action={setTaxRateActiveAction}
                        idField="taxRateId"
                        id={rate.id}
                        active={rate.active}
                        question={`Deactivate ${rate.displayName} ${rate.percentage}%? Charges planned from now on stop using it.`}
                        ariaLabel={`${rate.active ? 'Deactivate' : 'Activate'} ${rate.displayName} ${rate.percentage}%`}
                      />
                    ) : (
                      <span className="text-xs text-slate-600">{defaults.has(rate.id) ? 'Yes' : 'No'}</span>
                    )}
                  </Cell>
                </tr>
              ))}
            </Table>
          )}
        </section>
      </div>
    </>
  );
}
