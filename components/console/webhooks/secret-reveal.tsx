import type { ReactNode } from 'react';
import { CopyButton } from '@/components/ui/copy-button';
import { ShownOnce } from '@/components/ui/shown-once';

/** A signing secret shown this one time, with a copy button, brought into view and focused. */
export function SecretReveal({ title, secret, children }: { title: ReactNode; secret: string; children?: ReactNode }) {
  return (
    <ShownOnce labelledBy="new-signing-secret-title" testId="new-signing-secret">
      <p id="new-signing-secret-title" className="font-medium text-green-900">
        {title}
      </p>
      <p className="mt-1 text-sm text-green-900">Copy the signing secret now: it will not be shown again.</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code className="rounded border border-green-200 bg-white px-2 py-1 font-mono text-sm break-all text-slate-900" data-testid="signing-secret">
          {secret}
        </code>
        <CopyButton value={secret} label="Copy secret" />
      </div>
      {children ? <div className="mt-2 text-xs text-green-900">{children}</div> : null}
    </ShownOnce>
  );
}
