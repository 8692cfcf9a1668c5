import pino from 'pino';
import { config } from './config';

/** The PostgreSQL error fields that name what failed without quoting any value (`detail` and `where` can; so can the stack's first line). */
const DATABASE_ERROR_FIELDS = ['code', 'severity', 'schema', 'table', 'column', 'constraint', 'routine'] as const;

/**
 * Errors as pino logs them, except database errors: a failed query is logged with its
 * statement and PostgreSQL's error, never its parameters (customer emails, names, metadata).
 */
export function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if ('query' in error && 'params' in error) {
    const message = `Failed query: ${String(error.query)}`;
    return { type: error.constructor.name, message, query: error.query, cause: serializeError(error.cause) };
  }
  if ('severity' in error && 'code' in error) {
    const fields = Object.fromEntries(
      DATABASE_ERROR_FIELDS.filter((field) => field in error).map((field) => [field, (error as unknown as Record<string, unknown>)[field]]),
    );
    // PostgreSQL quotes the offending input in some messages (`invalid input syntax … "a@b.c"`).
    const message = error.message.replace(/"[^"]*"/g, '"…"');
    return { type: error.constructor.name, message, ...fields };
  }
  const serialized = pino.stdSerializers.err(error);
  return error.cause ? { ...serialized, cause: serializeError(error.cause) } : serialized;
}

/** JSON logs; anything that could carry a secret is redacted by key name. */
export const log = pino({
  level: config.logLevel,
  base: undefined,
  serializers: { err: serializeError },
  redact: {
    paths: [
      'authorization',
      '*.authorization',
      'headers.authorization',
      'headers.cookie',
      'password',
      '*.password',
      'secret',
      '*.secret',
      'refreshToken',
      '*.refreshToken',
      'accessToken',
      '*.accessToken',
      'signingSecret',
      '*.signingSecret',
      'databaseUrl',
    ],
    censor: '[redacted]',
  },
});
