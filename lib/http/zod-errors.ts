import type { z } from 'zod';
import { ApiError } from '../errors';

/** A zod failure as a 400 whose errors name each field by its dotted path. */
export function validationError(error: z.ZodError, location: 'body' | 'query' | 'path'): ApiError {
  const errors = error.issues.map((issue) => {
    const fieldPath = issue.path.map(String).join('.');
    const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : undefined;
    if (unknownKeys) {
      return unknownKeys.map((key) => ({
        path: fieldPath ? `${fieldPath}.${key}` : key,
        message: 'Unknown field.',
      }));
    }
    return [{ path: fieldPath || location, message: issue.message }];
  });
  const flat = errors.flat();
  const summary = flat.map((e) => `${e.path}: ${e.message}`).join('; ');
  return new ApiError('VALIDATION_FAILED', `Invalid ${location}: ${summary}`, { errors: flat });
}
