'use client';

import { useState, useTransition } from 'react';
import { ActionForm } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormState } from '@/lib/server/web/form-state';
import { commandSubscriptionAction, previewPriceChangeAction } from '@/app/(consoles)/merchant/(console)/subscriptions/actions';

type Preview = { priceId: string; dueNow: string; detail: string };

/**
 * Change price: the seller first sees what the change charges now (the API's Preview), then
 * confirms it; choosing another price asks for a new preview.
 */
export function ChangePriceForm({
  subscriptionId,
  expectedVersion,
  options,
}: {
  subscriptionId: string;
  expectedVersion: string;
  options: { value: string; label: string }[];
}) {
  const [priceId, setPriceId] = useState(options[0]?.value ?? '');
  const [answer, setAnswer] = useState<FormState<Preview> | null>(null);
  const [previewing, startPreview] = useTransition();
  // After a change the page offers other prices: a choice no longer offered falls back to the first.
  const selected = options.some((option) => option.value === priceId) ? priceId : (options[0]?.value ?? '');
  const preview = answer?.result?.priceId === selected ? answer.result : null;
  const askPreview = () =>
    startPreview(async () => {
      const form = new FormData();
      form.set('subscriptionId', subscriptionId);
      form.set('priceId', selected);
      setAnswer((await previewPriceChangeAction({}, form)) as FormState<Preview>);
    });
  return (
    <ActionForm action={commandSubscriptionAction} className="space-y-2" ariaLabel="Change price">
      <input type="hidden" name="subscriptionId" value={subscriptionId} />
      <input type="hidden" name="expectedVersion" value={expectedVersion} />
      <input type="hidden" name="type" value="ChangePrice" />
      <SelectField label="Change price (prorated now)" name="priceId" options={options} value={selected} onChange={(event) => setPriceId(event.target.value)} />
      <TextField label="Reason (optional)" name="reason" />
      {answer?.error ? <Alert tone="error">{answer.error}</Alert> : null}
      {preview ? (
        <div className="space-y-2">
          <p className="rounded-md bg-slate-50 p-3 text-sm" data-testid="price-change-preview">
            <span className="font-medium">Due now: {preview.dueNow}</span>
            <span className="block text-slate-600">{preview.detail}.</span>
          </p>
          <SubmitButton variant="secondary">Change price and charge {preview.dueNow}</SubmitButton>
        </div>
      ) : (
        <Button type="button" variant="secondary" onClick={askPreview} disabled={previewing}>
          {previewing ? 'Previewing…' : 'Preview the charge'}
        </Button>
      )}
    </ActionForm>
  );
}
