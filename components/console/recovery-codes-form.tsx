'use client';

import type { ReactNode } from 'react';
import Link from 'next/link';
import { ActionForm, type FormActionFn } from '@/components/ui/action-form';
import { CopyButton } from '@/components/ui/copy-button';

/** A form whose answer is a fresh set of recovery codes, shown this once with a copy button. */
export function RecoveryCodesForm({ action, ariaLabel, children }: { action: FormActionFn; ariaLabel: string; children: ReactNode }) {
  return (
    <ActionForm
      action={action}
      className="space-y-4"
      ariaLabel={ariaLabel}
      renderResult={({ recoveryCodes }: { recoveryCodes: string[] }) => (
        <RecoveryCodes codes={recoveryCodes}>
          <Link href="/merchant/security" className="text-sm font-medium text-brand-700 underline">
            I saved them
          </Link>
        </RecoveryCodes>
      )}
    >
      {children}
    </ActionForm>
  );
}

/** Recovery codes shown the one time they exist in plain text; `children`: how the reader says they are saved. */
export function RecoveryCodes({ codes, children }: { codes: string[]; children: ReactNode }) {
  return (
    <div role="status" className="mb-6 rounded-md border border-green-300 bg-green-50 p-4" data-testid="recovery-codes">
      <p className="font-medium text-green-900">Save these recovery codes now: they will not be shown again.</p>
      <p className="mt-1 text-sm text-green-900">Each works once, in place of a code from your app, if you lose your phone.</p>
      <ul className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm text-slate-900">
        {codes.map((code) => (
          <li key={code} className="rounded border border-green-200 bg-white px-2 py-1">
            {code}
          </li>
        ))}
      </ul>
      <div className="mt-3 flex items-center gap-3">
        <CopyButton value={codes.join('\n')} label="Copy all" />
        {children}
      </div>
    </div>
  );
}
