import { invalidField } from '../../errors';
import { parseUtcDateTimeLocal } from './form-dates';
import { field } from './form-state';

/** An optional whole-number field; anything else is refused on the field. */
export function wholeNumber(form: FormData, name: string, label: string): number | undefined {
  const text = field(form, name);
  if (!text) return undefined;
  if (!/^\d{1,10}$/.test(text)) throw invalidField(name, `${label} must be a whole number.`);
  return Number(text);
}

/** An optional `datetime-local` field read as UTC, as an ISO timestamp. */
export function utcMoment(form: FormData, name: string): string | undefined {
  const text = field(form, name);
  if (!text) return undefined;
  const at = parseUtcDateTimeLocal(text);
  if (!at) throw invalidField(name, 'Enter a date and time.');
  return at.toISOString();
}
