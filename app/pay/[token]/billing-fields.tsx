'use client';

import { useTranslations } from 'next-intl';
import type { QuotedTaxLine } from '@/lib/checkout/hosted';

export interface CountryOption {
  code: string;
  name: string;
}

const fieldClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 aria-[invalid=true]:border-red-500';

/**
 * The billing address and optional tax id, when the seller collects them: the country chooses
 * the tax rates, so changing it asks for the totals again (`onCountry`).
 */
export function BillingAddressFields({
  countries,
  onCountry,
  invalid,
  error,
}: {
  countries: CountryOption[];
  onCountry: (country: string) => void;
  invalid: (field: 'billingCountry' | 'taxId') => { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
  error: (field: 'billingCountry' | 'taxId') => React.ReactNode;
}) {
  const t = useTranslations();
  return (
    <fieldset className="space-y-3" data-testid="billing-address">
      <legend className="text-sm font-medium">{t('checkout.billingAddress')}</legend>
      <label className="block text-sm">
        {t('checkout.addressLine1')}
        <input name="billingLine1" autoComplete="billing address-line1" maxLength={200} className={fieldClass} />
      </label>
      <div className="grid grid-cols-2 gap-3">
        <label className="block text-sm">
          {t('checkout.postalCode')}
          <input name="billingPostalCode" autoComplete="billing postal-code" maxLength={20} className={fieldClass} />
        </label>
        <label className="block text-sm">
          {t('checkout.city')}
          <input name="billingCity" autoComplete="billing address-level2" maxLength={100} className={fieldClass} />
        </label>
      </div>
      <label className="block text-sm" htmlFor="billingCountry">
        {t('checkout.country')}
      </label>
      <select
        id="billingCountry"
        name="billingCountry"
        required
        defaultValue=""
        autoComplete="billing country"
        onChange={(event) => onCountry(event.target.value)}
        className={fieldClass}
        {...invalid('billingCountry')}
      >
        <option value="" disabled>
          {t('checkout.chooseCountry')}
        </option>
        {countries.map((country) => (
          <option key={country.code} value={country.code}>
            {country.name}
          </option>
        ))}
      </select>
      {error('billingCountry')}
      <label className="block text-sm">
        {t('checkout.taxId')}
        <input name="taxId" maxLength={64} autoComplete="off" className={fieldClass} {...invalid('taxId')} />
      </label>
      {error('taxId')}
    </fieldset>
  );
}

/** The tax in the total about to be charged, one line per rate (inclusive rates say so). */
export function TaxLines({ lines, total }: { lines: QuotedTaxLine[]; total: string }) {
  const t = useTranslations();
  if (lines.length === 0) return null;
  return (
    <dl className="space-y-1 rounded-md bg-slate-50 p-3 text-sm text-slate-700" data-testid="tax-lines" aria-live="polite">
      {lines.map((line) => (
        <div key={line.label} className="flex justify-between gap-4">
          <dt>{line.label}</dt>
          <dd>{line.amount}</dd>
        </div>
      ))}
      <div className="flex justify-between gap-4 border-t border-slate-200 pt-1 font-semibold text-slate-900">
        <dt>{t('checkout.total')}</dt>
        <dd data-testid="quoted-total">{total}</dd>
      </div>
    </dl>
  );
}
