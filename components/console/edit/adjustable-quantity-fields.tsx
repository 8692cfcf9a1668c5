import { TextField } from '@/components/ui/field';

/** The payment link forms' adjustable quantity: a checkbox and the bounds the customer chooses between on the hosted page. */
export function AdjustableQuantityFields({ adjustable }: { adjustable?: { enabled: boolean; minimum: number; maximum: number } }) {
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-xs font-medium text-slate-600">Quantity the customer chooses (one-time links)</legend>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" name="quantityAdjustable" defaultChecked={adjustable?.enabled ?? false} className="h-4 w-4 accent-brand-600" /> Let customers
        adjust the quantity
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Least quantity" name="quantityMinimum" type="number" min={1} max={10000} defaultValue={adjustable?.minimum ?? 1} />
        <TextField label="Most quantity" name="quantityMaximum" type="number" min={1} max={10000} defaultValue={adjustable?.maximum ?? 99} />
      </div>
    </fieldset>
  );
}
