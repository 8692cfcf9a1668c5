'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { ActionForm, type FormActionFn } from '@/components/ui/action-form';
import { Badge, Card } from '@/components/ui/layout';
import { RecoveryCodes } from './recovery-codes-form';

export type TwoFactorStatus = 'off' | 'setting-up' | 'on';

const BADGES: Record<TwoFactorStatus, ReactNode> = {
  off: <Badge tone="gray">Off</Badge>,
  'setting-up': <Badge tone="blue">Setting up</Badge>,
  on: <Badge tone="green">On</Badge>,
};

const ShowCodes = createContext<(codes: string[]) => void>(() => {});

/**
 * The Security page's two-factor card, the same component in every state, so the recovery codes
 * the confirmation answers survive the page being rendered again as "on" (the confirming action
 * revalidates it): the badge, the body and the console's warning all follow the server's state.
 */
export function TwoFactorCard({ status, children }: { status: TwoFactorStatus; children: ReactNode }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <Card title="Two-factor sign-in" actions={BADGES[status]}>
      {codes && status === 'on' ? (
        <RecoveryCodes codes={codes}>
          <button type="button" onClick={() => setCodes(null)} className="text-sm font-medium text-brand-700 underline">
            I saved them
          </button>
        </RecoveryCodes>
      ) : null}
      <ShowCodes.Provider value={setCodes}>{children}</ShowCodes.Provider>
    </Card>
  );
}

/** The code that turns two-factor on; its answer, the first recovery codes, is shown by the card around it. */
export function ConfirmTwoFactorForm({ action, children }: { action: FormActionFn; children: ReactNode }) {
  const showCodes = useContext(ShowCodes);
  return (
    <ActionForm
      action={async (state, form) => {
        const answer = await action(state, form);
        const codes = (answer.result as { recoveryCodes?: string[] } | undefined)?.recoveryCodes;
        if (codes) showCodes(codes);
        return answer;
      }}
      className="space-y-4"
      ariaLabel="Confirm two-factor"
    >
      {children}
    </ActionForm>
  );
}
