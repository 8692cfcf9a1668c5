'use client';

import { ActionForm, type FormActionFn } from '@/components/ui/action-form';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { SecretReveal } from './secret-reveal';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';

/** Rotates the signing secret after a confirmation and shows the new one this once. */
export function RotateSecretForm({
  action,
  endpointId,
  secretPrefix,
  timeZone,
}: {
  action: FormActionFn;
  endpointId: string;
  secretPrefix: string;
  timeZone: string;
}) {
  return (
    <ActionForm
      action={action}
      ariaLabel="Rotate signing secret"
      renderResult={(rotated: { signingSecret: string; previousSecretExpiresAt: string | null }) => (
        <SecretReveal title="Secret rotated." secret={rotated.signingSecret}>
          Until {formatConsoleDateTime(rotated.previousSecretExpiresAt, timeZone)} every delivery is signed with both the new and the previous secret; after
          that only with the new one.
        </SecretReveal>
      )}
    >
      <input type="hidden" name="endpointId" value={endpointId} />
      <input type="hidden" name="secretPrefix" value={secretPrefix} />
      {/* Keyed by the secret it rotates: once rotated, the button is back to its first step. */}
      <ConfirmButton key={secretPrefix} question="Rotate the signing secret?" confirmLabel="Rotate secret" variant="primary">
        Rotate secret
      </ConfirmButton>
    </ActionForm>
  );
}
