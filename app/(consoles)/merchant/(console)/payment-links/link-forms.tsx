'use client';

import { ActionForm } from '@/components/ui/action-form';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { CopyButton } from '@/components/ui/copy-button';
import { SubmitButton } from '@/components/ui/submit-button';
import { paymentLinkStateAction } from './actions';

/** One row's state buttons: each is its own small form, so its answer shows next to it. */
export function LinkActions({ id, name, status }: { id: string; name: string; status: string }) {
  const one = (action: string, label: string) => (
    <ActionForm action={paymentLinkStateAction} ariaLabel={`${label} ${name}`}>
      <input type="hidden" name="paymentLinkId" value={id} />
      <input type="hidden" name="action" value={action} />
      <SubmitButton variant="secondary" size="sm" pendingText="…">
        {label}
      </SubmitButton>
    </ActionForm>
  );
  return (
    <div className="flex flex-wrap items-start justify-end gap-2">
      {status === 'active' ? one('disable', 'Disable') : null}
      {status === 'disabled' ? one('enable', 'Enable') : null}
      {one('duplicate', 'Duplicate')}
      {status !== 'archived' ? (
        <ActionForm action={paymentLinkStateAction} ariaLabel={`Archive ${name}`}>
          <input type="hidden" name="paymentLinkId" value={id} />
          <input type="hidden" name="action" value="archive" />
          <ConfirmButton question="Archive for good? It can never be paid again." confirmLabel="Archive">
            Archive
          </ConfirmButton>
        </ActionForm>
      ) : null}
    </div>
  );
}

export function NewLinkResult({ result }: { result: { url: string } }) {
  return (
    <div className="mt-3 rounded-md border border-green-200 bg-green-50 p-3 text-sm">
      <p className="font-medium text-green-900">Share this URL</p>
      <p className="my-1 font-mono text-xs break-all text-green-900">{result.url}</p>
      <CopyButton value={result.url} label="Copy URL" />
    </div>
  );
}
