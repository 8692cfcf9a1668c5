'use client';

import { ActionForm } from '@/components/ui/action-form';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { reverseUsageAction } from '@/app/(consoles)/merchant/entitlement-actions';

/** Reverse one usage record (POST /api/Usage/{usageId}/Reverse), after a worded confirmation. */
export function ReverseUsageForm({ usageId, quantity, feature }: { usageId: string; quantity: number; feature: string }) {
  return (
    <ActionForm action={reverseUsageAction} ariaLabel={`Reverse usage ${usageId}`}>
      <input type="hidden" name="usageId" value={usageId} />
      <ConfirmButton
        variant="secondary"
        question={`Reverse ${quantity} ${feature}? It stops counting toward the limit and is not billed; credits it used are given back.`}
        confirmLabel="Reverse usage"
      >
        Reverse
      </ConfirmButton>
    </ActionForm>
  );
}
