'use client';

import { ActionForm } from '@/components/ui/action-form';
import { TextAreaField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { updateProductAction } from '@/app/(consoles)/merchant/edit-actions';

/** Name, description and active of a product, as PUT /api/Product/{id} takes them. */
export function ProductEditForm({ product }: { product: { id: string; name: string; description: string | null; active: boolean } }) {
  return (
    <ActionForm action={updateProductAction} className="max-w-xl space-y-4" ariaLabel="Edit product">
      <input type="hidden" name="productId" value={product.id} />
      <TextField label="Name" name="name" required maxLength={250} defaultValue={product.name} />
      <TextAreaField
        label="Description"
        name="description"
        rows={3}
        maxLength={5000}
        defaultValue={product.description ?? ''}
        hint="Optional; shown on hosted checkout pages."
      />
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" name="active" defaultChecked={product.active} className="h-4 w-4 accent-brand-600" />
        Active (new checkouts may sell it)
      </label>
      <SubmitButton pendingText="Saving…">Save product</SubmitButton>
    </ActionForm>
  );
}
