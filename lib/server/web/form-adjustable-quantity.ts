import { wholeNumber } from './form-inputs';

/** A payment link form's "customers choose the quantity" checkbox and bounds, as the API's `adjustableQuantity`. */
export function adjustableQuantityField(form: FormData): { enabled: boolean; minimum?: number; maximum?: number } {
  if (form.get('quantityAdjustable') !== 'on') return { enabled: false };
  return {
    enabled: true,
    minimum: wholeNumber(form, 'quantityMinimum', 'Least quantity'),
    maximum: wholeNumber(form, 'quantityMaximum', 'Most quantity'),
  };
}
