import type { z } from 'zod';
import { validationError } from '../http/zod-errors';

/** Validates form input with the same zod schema as the API body, failing as a 400 would. */
export function parseForm<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, 'body');
  return result.data;
}
