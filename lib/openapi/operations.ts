import type { Operation } from '../http/operation';
import * as catalog from '../catalog/api';
import * as customers from '../customers/api';
import * as webhooks from '../webhooks/api';

/** Every developer-API operation, in the order the reference lists them. */
export const ALL_OPERATIONS: Operation[] = [...Object.values(catalog), ...Object.values(customers), ...Object.values(webhooks)];
