import { ActionForm, type FormActionFn } from '@/components/ui/action-form';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { SubmitButton } from '@/components/ui/submit-button';

/**
 * Turns one catalog object off or on again: deactivating (it stops selling) asks first,
 * activating does not. The action gets the object's id as `idField` and the new `active`.
 */
export function ActiveToggleForm({
  action,
  idField,
  id,
  active,
  noun,
  question,
  ariaLabel,
}: {
  action: FormActionFn;
  idField: string;
  id: string;
  active: boolean;
  /** Added to the button labels ("Deactivate product"); none for rows of a table. */
  noun?: string;
  question: string;
  ariaLabel?: string;
}) {
  const label = (verb: string) => (noun ? `${verb} ${noun}` : verb);
  return (
    <ActionForm action={action} ariaLabel={ariaLabel}>
      <input type="hidden" name={idField} value={id} />
      <input type="hidden" name="active" value={String(!active)} />
      {active ? (
        <ConfirmButton question={question} confirmLabel={label('Deactivate')}>
          {label('Deactivate')}
        </ConfirmButton>
      ) : (
        <SubmitButton variant="secondary" size="sm">
          {label('Activate')}
        </SubmitButton>
      )}
    </ActionForm>
  );
}
