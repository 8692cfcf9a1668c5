'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { PRICE_INTERVALS, type AGGREGATIONS } from '@/lib/catalog/price-options';
import { normalizeCurrency } from '@/lib/money/currencies';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { useFormState } from '@/components/ui/form-context';
import { SubmitButton } from '@/components/ui/submit-button';
import { PRICING_MODELS, readMeteredFields, type PricingModel } from './metered-input';
import { UsagePreview } from './usage-preview';

const AGGREGATION_LABELS: Record<(typeof AGGREGATIONS)[number], string> = {
  sum: 'Sum of quantities',
  max: 'Highest quantity',
  last: 'Last quantity',
  unique: 'Unique values of a property',
};

/**
 * The product page's new-price form: a one-time or recurring licensed price, or a metered one
 * (per unit, decimal, package, graduated or volume tiers) with a live preview of what N units
 * cost, priced by the same function the invoices use.
 */
/** `taxChoices`: the seller's tax rates to tick for the price (server-rendered), shown before the button. */
export function NewPriceFields({ productId, taxChoices }: { productId: string; taxChoices?: React.ReactNode }) {
  const [type, setType] = useState('OneTime');
  const [usageType, setUsageType] = useState('licensed');
  const [model, setModel] = useState<PricingModel>('perUnit');
  const [aggregation, setAggregation] = useState('sum');
  const [tierRows, setTierRows] = useState<number[]>([0, 1]);
  const nextRow = useRef(2);
  const [values, setValues] = useState<Record<string, string>>({ currency: 'USD' });
  const box = useRef<HTMLDivElement>(null);
  const metered = type === 'Recurring' && usageType === 'metered';
  const tiered = model === 'graduated' || model === 'volume';

  // The preview reads the form as it will be posted.
  const readForm = () => {
    const form = box.current?.closest('form');
    if (!form) return;
    const read: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') read[name] = value.trim();
    setValues(read);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the rows and selects just rendered change what the form posts, so the preview reads the form again after each such render.
  useEffect(readForm, [tierRows, model, type, usageType, aggregation]);
  const reset = () => {
    setType('OneTime');
    setUsageType('licensed');
    setModel('perUnit');
    setAggregation('sum');
    setTierRows([0, 1]);
    setValues({ currency: 'USD' });
  };
  const currency = normalizeCurrency(values.currency ?? '') ?? null;
  const preview = metered && currency ? readMeteredFields((name) => values[name] ?? '', currency) : null;

  return (
    <div ref={box} className="space-y-4" onInput={readForm} onChange={readForm} onReset={reset}>
      <input type="hidden" name="productId" value={productId} />
      <div className="grid grid-cols-2 gap-3">
        <SelectField
          label="Type"
          name="type"
          value={type}
          onChange={(event) => setType(event.target.value)}
          options={[
            { value: 'OneTime', label: 'One time' },
            { value: 'Recurring', label: 'Recurring' },
          ]}
        />
        <TextField label="Currency" name="currency" defaultValue="USD" maxLength={3} required className="[&_input]:uppercase" />
      </div>
      {type === 'Recurring' ? (
        <SelectField
          label="Billing"
          name="usageType"
          value={usageType}
          onChange={(event) => setUsageType(event.target.value)}
          options={[
            { value: 'licensed', label: 'Fixed amount, in advance' },
            { value: 'metered', label: 'Metered usage, in arrears' },
          ]}
        />
      ) : null}
      {metered ? null : <TextField label="Amount" name="amount" inputMode="decimal" placeholder="12.00" required />}
      {type === 'Recurring' ? (
        <div className="grid grid-cols-2 gap-3">
          <TextField label="Every" name="intervalCount" type="number" min={1} defaultValue={1} />
          <SelectField label="Interval" name="interval" options={PRICE_INTERVALS} defaultValue="month" />
        </div>
      ) : null}
      {type === 'Recurring' && !metered ? <TextField label="Trial days" name="trialDays" type="number" min={0} max={730} hint="Optional." /> : null}
      {metered ? (
        <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-xs font-medium text-slate-600">Usage</legend>
          <TextField label="Feature" name="feature" placeholder="api_calls" hint="The feature your backend records usage of." required />
          <SelectField
            label="Quantity per period"
            name="aggregation"
            value={aggregation}
            onChange={(event) => setAggregation(event.target.value)}
            options={Object.entries(AGGREGATION_LABELS).map(([value, label]) => ({ value, label }))}
          />
          {aggregation === 'unique' ? <TextField label="Property counted" name="aggregationProperty" placeholder="user_id" required /> : null}
          <SelectField
            label="Pricing model"
            name="pricingModel"
            value={model}
            onChange={(event) => setModel(event.target.value as PricingModel)}
            options={PRICING_MODELS}
          />
          {tiered ? (
            <TierRows
              rows={tierRows}
              currency={currency ?? 'USD'}
              onAdd={() => setTierRows((rows) => [...rows, nextRow.current++])}
              onRemove={(row) => setTierRows((rows) => rows.filter((r) => r !== row))}
            />
          ) : (
            <div className={model === 'package' ? 'grid grid-cols-2 gap-3' : ''}>
              <PriceField
                label={model === 'package' ? 'Price per package' : 'Price per unit'}
                name="unitPrice"
                also={['amount', 'unitAmountDecimal']}
                placeholder="0.05"
                hint={model === 'package' ? undefined : 'Fractions of a cent are fine: 0.0004.'}
              />
              {model === 'package' ? <TextField label="Units per package" name="packageSize" type="number" min={1} placeholder="1000" /> : null}
            </div>
          )}
          <UsagePreview read={preview} currency={currency} feature={values.feature || 'units'} />
        </fieldset>
      ) : null}
      {taxChoices}
      <SubmitButton pendingText="Creating…">Create price</SubmitButton>
    </div>
  );
}

/** A price typed in major units whose server message may come under its API name (`also`). */
function PriceField({ label, name, also = [], hint, placeholder }: { label: string; name: string; also?: string[]; hint?: string; placeholder?: string }) {
  const id = useId();
  const errors = useFormState().fieldErrors ?? {};
  const error = [name, ...also].map((key) => errors[key]).find(Boolean);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="mt-0.5 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        inputMode="decimal"
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:ring-1 focus:ring-brand-600 focus:outline-none aria-[invalid=true]:border-red-500"
      />
    </div>
  );
}

const CELL_INPUT =
  'block w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm shadow-sm focus:border-brand-600 focus:ring-1 focus:ring-brand-600 focus:outline-none aria-[invalid=true]:border-red-500';

/** The tiers, one row each: the last unit of the tier (the last row covers everything above), its unit price and flat fee. */
function TierRows({ rows, currency, onAdd, onRemove }: { rows: number[]; currency: string; onAdd: () => void; onRemove: (row: number) => void }) {
  const errors = useFormState().fieldErrors ?? {};
  const tiersError = errors.tiers;
  return (
    <fieldset className="space-y-2" aria-describedby={tiersError ? 'tiers-error' : undefined}>
      <legend className="text-sm font-medium text-slate-800">Tiers</legend>
      <p className="text-xs text-slate-600">Prices in {currency}. A tier ends at its “Up to” unit; the last covers everything above.</p>
      <input type="hidden" name="tierCount" value={rows.length} />
      {rows.map((row, index) => {
        const last = index === rows.length - 1;
        const n = index + 1;
        const rowErrors = ['upTo', 'unitPrice', 'unitAmount', 'unitAmountDecimal', 'flatAmount']
          .map((key) => errors[`tiers.${index}.${key}`])
          .filter((message): message is string => Boolean(message));
        return (
          <div key={row} data-tier-row={n} className="rounded-md border border-slate-200 p-2">
            <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto] items-end gap-2">
              {last ? (
                <div className="text-xs text-slate-700">
                  Up to
                  <span className="block py-1.5 text-sm text-slate-600">and above</span>
                </div>
              ) : (
                <label className="text-xs text-slate-700">
                  Up to
                  <input
                    name={`tiers.${index}.upTo`}
                    type="number"
                    min={1}
                    aria-label={`Tier ${n} up to`}
                    aria-invalid={errors[`tiers.${index}.upTo`] ? true : undefined}
                    className={CELL_INPUT}
                  />
                </label>
              )}
              <label className="text-xs text-slate-700">
                Unit price
                <input
                  name={`tiers.${index}.unitPrice`}
                  inputMode="decimal"
                  placeholder="0.02"
                  aria-label={`Tier ${n} unit price`}
                  aria-invalid={errors[`tiers.${index}.unitPrice`] || errors[`tiers.${index}.unitAmount`] ? true : undefined}
                  className={CELL_INPUT}
                />
              </label>
              <label className="text-xs text-slate-700">
                Flat fee
                <input
                  name={`tiers.${index}.flatAmount`}
                  inputMode="decimal"
                  placeholder="0.00"
                  aria-label={`Tier ${n} flat fee`}
                  aria-invalid={errors[`tiers.${index}.flatAmount`] ? true : undefined}
                  className={CELL_INPUT}
                />
              </label>
              <Button variant="ghost" size="sm" aria-label={`Remove tier ${n}`} disabled={rows.length <= 1} onClick={() => onRemove(row)}>
                ✕
              </Button>
            </div>
            {rowErrors.map((message) => (
              <p key={message} className="mt-1 text-sm text-red-700">
                Tier {n}: {message}
              </p>
            ))}
          </div>
        );
      })}
      {tiersError && !Object.keys(errors).some((key) => key.startsWith('tiers.')) ? (
        <p id="tiers-error" className="text-sm text-red-700">
          {tiersError}
        </p>
      ) : null}
      <Button variant="secondary" size="sm" onClick={onAdd} disabled={rows.length >= 20}>
        Add tier
      </Button>
    </fieldset>
  );
}
