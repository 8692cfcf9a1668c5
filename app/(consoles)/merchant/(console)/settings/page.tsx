import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { LIFECYCLE_EMAIL_OPTIONS, nextInvoiceNumberOf, toAccountSettings } from '@/lib/merchants/settings';
import { roleCan } from '@/lib/merchants/roles';
import { ActionForm } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { SelectField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { Card, PageHeader } from '@/components/ui/layout';
import { currentSeller } from '../../session';
import { saveSettingsAction } from './actions';

export const metadata: Metadata = { title: 'Settings' };

const TIME_ZONES = Intl.supportedValuesOf('timeZone');

export default async function SettingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, user } = await currentSeller('view');
  const { saved } = await searchParams;
  const settings = toAccountSettings(merchant, await nextInvoiceNumberOf(getDb(), merchant.id));
  const canEdit = roleCan(user.role, 'settings:write');
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your business as customers see it on receipts and invoices, and how the console shows dates."
        actions={
          <div className="flex gap-4">
            <Link href="/merchant/settings/payments" className="text-sm font-medium text-brand-700 hover:underline">
              Payments
            </Link>
            <Link href="/merchant/settings/branding" className="text-sm font-medium text-brand-700 hover:underline">
              Branding
            </Link>
          </div>
        }
      />
      {saved ? <Alert tone="success">Settings saved.</Alert> : null}
      <Card title="Account" className="max-w-3xl">
        <ActionForm key={settings.updatedAt} action={saveSettingsAction} className="space-y-6" ariaLabel="Account settings">
          <fieldset disabled={!canEdit} className="space-y-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label="Business name" name="name" defaultValue={settings.name} required maxLength={250} />
              <SelectField
                label="Account type"
                name="accountType"
                defaultValue={settings.accountType}
                options={[
                  { value: 'Business', label: 'Business — a company or organisation' },
                  { value: 'Individual', label: 'Individual — selling as yourself' },
                ]}
              />
              <TextField
                label="Support email"
                name="supportEmail"
                type="email"
                defaultValue={settings.supportEmail ?? ''}
                hint="Where customers write for help."
              />
              <TextField label="Support URL" name="supportUrl" type="url" defaultValue={settings.supportUrl ?? ''} placeholder="https://" />
            </div>
            <fieldset className="space-y-4">
              <legend className="text-sm font-semibold text-slate-900">Business address</legend>
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField label="Address line 1" name="line1" defaultValue={settings.address.line1 ?? ''} autoComplete="address-line1" />
                <TextField label="Address line 2" name="line2" defaultValue={settings.address.line2 ?? ''} autoComplete="address-line2" />
                <TextField label="City" name="city" defaultValue={settings.address.city ?? ''} autoComplete="address-level2" />
                <TextField label="State or region" name="region" defaultValue={settings.address.region ?? ''} autoComplete="address-level1" />
                <TextField label="Postal code" name="postalCode" defaultValue={settings.address.postalCode ?? ''} autoComplete="postal-code" />
                <TextField
                  label="Country"
                  name="country"
                  defaultValue={settings.address.country ?? ''}
                  maxLength={2}
                  hint="Two letters, e.g. US, FR."
                  autoComplete="country"
                />
              </div>
            </fieldset>
            <label className="flex items-start gap-2 text-sm text-slate-800">
              <input type="checkbox" name="sendReceipts" defaultChecked={settings.sendReceipts} className="mt-0.5 h-4 w-4 accent-brand-600" />
              <span>
                Email receipts
                <span className="block text-xs text-slate-600">After each successful payment, customers get a receipt linking their invoice page and PDF.</span>
              </span>
            </label>
            <label className="flex items-start gap-2 text-sm text-slate-800">
              <input type="checkbox" name="collectBillingAddress" defaultChecked={settings.collectBillingAddress} className="mt-0.5 h-4 w-4 accent-brand-600" />
              <span>
                Ask for the billing address at checkout
                <span className="block text-xs text-slate-600">
                  The hosted checkout asks for the customer’s address and an optional tax ID; the country chooses tax rates by country.
                </span>
              </span>
            </label>
            <fieldset className="space-y-3">
              <legend className="text-sm font-semibold text-slate-900">Subscription and refund emails</legend>
              {LIFECYCLE_EMAIL_OPTIONS.map((option) => (
                <label key={option.name} className="flex items-start gap-2 text-sm text-slate-800">
                  <input type="checkbox" name={option.name} defaultChecked={settings[option.name]} className="mt-0.5 h-4 w-4 accent-brand-600" />
                  <span>
                    {option.label}
                    <span className="block text-xs text-slate-600">{option.hint}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <fieldset className="space-y-4">
              <legend className="text-sm font-semibold text-slate-900">On invoices</legend>
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  label="Legal name"
                  name="legalName"
                  defaultValue={settings.legalName ?? ''}
                  maxLength={250}
                  hint="If it differs from the business name."
                />
                <TextField label="Tax ID" name="taxId" defaultValue={settings.taxId ?? ''} maxLength={64} hint="Your VAT or other tax number." />
              </div>
              <TextField
                label="Invoice footer"
                name="invoiceFooter"
                defaultValue={settings.invoiceFooter ?? ''}
                maxLength={1000}
                hint="Registration details or payment terms, printed at the foot of every invoice."
              />
            </fieldset>
            <TextField
              label="Invoice number prefix"
              name="invoicePrefix"
              defaultValue={settings.invoicePrefix ?? ''}
              maxLength={20}
              hint={`Letters, digits and dashes. Your next invoice is numbered ${settings.nextInvoiceNumber}; empty: made from the business name.`}
            />
            <SelectField
              label="Time zone"
              name="timeZone"
              defaultValue={settings.timeZone}
              options={TIME_ZONES.includes(settings.timeZone) ? TIME_ZONES : [settings.timeZone, ...TIME_ZONES]}
              hint="Dates in this console are shown in this zone."
            />
          </fieldset>
          {canEdit ? (
            <SubmitButton pendingText="Saving…">Save settings</SubmitButton>
          ) : (
            <p className="text-sm text-slate-600">Only Owners and Admins can change settings.</p>
          )}
        </ActionForm>
      </Card>
    </>
  );
}
