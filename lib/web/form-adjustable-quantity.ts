import { wholeNumberField } from './form-state';

/** A payment link form's "customers choose the quantity" checkbox and bounds, as the API's `adjustableQuantity`. */
export function adjustableQuantityField(form: FormData): { enabled: boolean; minimum?: number; maximum?: number } {
  if (form.get('quantityAdjustable') !== 'on') return { enabled: false };
  return {
    enabled: true,
    minimum: wholeNumberField(form, 'quantityMinimum', 'Least quantity'),
    maximum: wholeNumberField(form, 'quantityMaximum', 'Most quantity'),
  };
}
