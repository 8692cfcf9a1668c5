'use client';

import { ActionForm } from '@/components/ui/action-form';
import { SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { createCustomerAction, setCustomValueAction, updateCustomerAction } from '@/app/(consoles)/merchant/customer-actions';

/** Name, email, external id, status and metadata (PUT /api/Customer/{id}); an empty field clears it. */
export function CustomerEditForm({
  customer,
  metadataText,
}: {
  customer: { id: string; name: string | null; email: string | null; externalId: string | null; status: string };
  metadataText: string;
}) {
  return (
    <ActionForm action={updateCustomerAction} className="space-y-4" ariaLabel="Edit customer">
      <input type="hidden" name="customerId" value={customer.id} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Name" name="name" maxLength={250} defaultValue={customer.name ?? ''} />
        <TextField label="Email" name="email" type="email" maxLength={320} defaultValue={customer.email ?? ''} />
        <TextField
          label="External id"
          name="externalId"
          maxLength={255}
          defaultValue={customer.externalId ?? ''}
          hint="Your own id; unique among your customers."
        />
        <SelectField
          label="Status"
          name="status"
          defaultValue={customer.status}
          options={[
            { value: 'active', label: 'Active' },
            { value: 'archived', label: 'Archived' },
          ]}
        />
      </div>
      <TextAreaField
        label="Metadata"
        name="metadata"
        rows={3}
        defaultValue={metadataText}
        className="[&_textarea]:font-mono"
        hint="One key=value per line (at most 50 keys)."
      />
      <SubmitButton pendingText="Saving…">Save customer</SubmitButton>
    </ActionForm>
  );
}

/** Adds a custom value, or changes the value of an existing key. */
export function CustomValueForm({ customerId }: { customerId: string }) {
  return (
    <ActionForm action={setCustomValueAction} className="space-y-3" ariaLabel="Set a custom value">
      <input type="hidden" name="customerId" value={customerId} />
      <div className="grid gap-3">
        <TextField label="Key" name="key" required maxLength={64} className="[&_input]:font-mono" hint="Letters, digits and _ . : -" />
        <TextField label="Value" name="value" maxLength={1000} hint="An existing key gets this value." />
      </div>
      <SubmitButton variant="secondary" pendingText="Saving…">
        Set value
      </SubmitButton>
    </ActionForm>
  );
}

/** A new customer (POST /api/Customer); every field is optional. Opens the customer's page. */
export function NewCustomerForm() {
  return (
    <ActionForm action={createCustomerAction} className="space-y-3" ariaLabel="New customer">
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField label="Name" name="name" maxLength={250} />
        <TextField label="Email" name="email" type="email" maxLength={320} />
        <TextField label="External id" name="externalId" maxLength={255} hint="Your own id; unique among your customers." />
      </div>
      <TextAreaField label="Metadata" name="metadata" rows={2} className="[&_textarea]:font-mono" hint="One key=value per line (at most 50 keys)." />
      <SubmitButton pendingText="Creating…">Create customer</SubmitButton>
    </ActionForm>
  );
}
