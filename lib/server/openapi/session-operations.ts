import type { SessionOperation } from '../../http/session-operation';
import * as auth from '../../auth/api';
import * as settings from '../../merchants/api';
import * as team from '../../team/api';

/**
 * Every sign-in-API operation (JWT family), listed in the reference after the developer API, by
 * path and method: module namespaces list exports in an order that differs between ESM and
 * CommonJS loaders, and the document must come out the same under both.
 */
export const SESSION_OPERATIONS: SessionOperation[] = [...Object.values(auth), ...Object.values(team), ...Object.values(settings)]
  .flatMap((value) => ('path' in value ? [value as SessionOperation] : Object.values(value as Record<string, SessionOperation>)))
  .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
