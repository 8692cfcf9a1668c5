'use client';

import { ActionForm, type FormActionFn } from '@/components/ui/action-form';
import { SubmitButton } from '@/components/ui/submit-button';
import { AutoRefresh } from './auto-refresh';

/**
 * Resends one delivery. The form carries a key made when the page was rendered: submitting the
 * same form twice queues one attempt (the second answer replays the first).
 */
export function RetryDeliveryForm({ action, deliveryId, formKey }: { action: FormActionFn; deliveryId: string; formKey: string }) {
  return (
    <ActionForm action={action} ariaLabel="Retry delivery" renderResult={(result: { queuedAt: string }) => <AutoRefresh key={result.queuedAt} />}>
      <input type="hidden" name="deliveryId" value={deliveryId} />
      <input type="hidden" name="formKey" value={formKey} />
      <SubmitButton pendingText="Queuing…">Retry</SubmitButton>
    </ActionForm>
  );
}
