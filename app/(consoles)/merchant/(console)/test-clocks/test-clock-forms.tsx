'use client';

import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { advanceTestClockAction, attachTestClockCustomerAction, createTestClockAction } from '@/app/(consoles)/merchant/(console)/test-clocks/actions';

/** A new test clock (POST /api/TestClock): a name and a starting time (UTC, default now). */
export function NewTestClockForm() {
  return (
    <ActionForm action={createTestClockAction} className="grid gap-3 sm:grid-cols-3 sm:items-end" ariaLabel="New test clock">
      <TextField label="Name (optional)" name="name" maxLength={200} />
      <TextField label="Starts at (UTC, optional)" name="frozenTime" type="datetime-local" />
      <SubmitButton variant="secondary">Create test clock</SubmitButton>
    </ActionForm>
  );
}

/** A clock's Advance (POST …/Advance, once per form key) and Attach customer (POST …/Customer). */
export function TestClockForms({ testClockId, formKey }: { testClockId: string; formKey: string }) {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <ActionForm action={advanceTestClockAction} className="flex flex-wrap items-end gap-2" ariaLabel={`Advance ${testClockId}`}>
        <input type="hidden" name="testClockId" value={testClockId} />
        <input type="hidden" name="formKey" value={formKey} />
        <TextField label="Advance to (UTC)" name="frozenTime" type="datetime-local" required className="min-w-0 flex-1" />
        <SubmitButton variant="secondary" pendingText="Advancing…">
          Advance
        </SubmitButton>
      </ActionForm>
      <ActionForm action={attachTestClockCustomerAction} className="flex flex-wrap items-end gap-2" ariaLabel={`Attach a customer to ${testClockId}`}>
        <input type="hidden" name="testClockId" value={testClockId} />
        <TextField label="Customer id" name="customerId" required className="min-w-0 flex-1 [&_input]:font-mono" hint="Before it subscribes." />
        <SubmitButton variant="secondary">Attach customer</SubmitButton>
      </ActionForm>
    </div>
  );
}
