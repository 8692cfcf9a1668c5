import type { z } from 'zod';
import { refuseUnstorableText } from '../../http/input-checks';
import { validationError } from '../../http/zod-errors';

/**
 * Validates form input with the same zod schema as the API body, failing as a 400 would: a NUL
 * character or a lone surrogate in any field is refused as the API refuses it.
 */
export function parseForm<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  refuseUnstorableText(value, 'body');
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, 'body');
  return result.data;
}
