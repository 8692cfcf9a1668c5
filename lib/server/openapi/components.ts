import { z } from 'zod';
import * as authSchemas from '../../auth/schemas';
import * as billingSchemas from '../../billing/schemas';
import * as catalogSchemas from '../../catalog/schemas';
import * as checkoutSchemas from '../../checkout/schemas';
import * as customerSchemas from '../../customers/schemas';
import * as designSchemas from '../../designs/schemas';
import * as entitlementSchemas from '../../entitlements/schemas';
import * as merchantSchemas from '../../merchants/schemas';
import * as paymentLinkSchemas from '../../payment-links/schemas';
import * as paymentSchemas from '../../payments/schemas';
import * as promotionSchemas from '../../promotions/schemas';
import * as subscriptionSchemas from '../../subscriptions/schemas';
import * as teamSchemas from '../../team/schemas';
import * as usageSchemas from '../../usage/schemas';
import * as webhookSchemas from '../../webhooks/schemas';
import * as eventSchemas from '../event-catalog';
import { Timestamp } from '../../http/schemas';
import { ERROR_CODES } from '../../errors';

/** RFC 9457 problem details (DESIGN 4.5); some codes add members, e.g. `requiredScope`, `declineCode`. */
export const Problem = z
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: z.int().meta({ description: 'The HTTP status of the answer.' }),
    detail: z.string(),
    code: z.enum(ERROR_CODES).meta({ description: 'Stable UPPER_SNAKE error code.', example: 'VALIDATION_FAILED' }),
    requestId: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem' });

const SCHEMA_MODULES = [
  authSchemas,
  billingSchemas,
  catalogSchemas,
  checkoutSchemas,
  customerSchemas,
  designSchemas,
  entitlementSchemas,
  merchantSchemas,
  paymentLinkSchemas,
  paymentSchemas,
  promotionSchemas,
  subscriptionSchemas,
  teamSchemas,
  usageSchemas,
  webhookSchemas,
  eventSchemas,
];

/**
 * Gives the request and response schemas the domains export (`CreatePriceBody`, `PriceResponse`,
 * …, and the `Timestamp` every response repeats) their export names as component ids, so
 * zod-openapi renders each once under `components.schemas` and refers to it with `$ref`
 * wherever it is used, in the direction it is used. The ids live in zod's global registry
 * (no new schema instances), which keeps the domain schemas free of OpenAPI bookkeeping.
 */
export function nameSchemas(): void {
  const name = (schema: z.ZodType, id: string) => z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
  name(Timestamp, 'Timestamp');
  for (const module of SCHEMA_MODULES) {
    for (const [exportName, value] of Object.entries(module).sort(([a], [b]) => a.localeCompare(b))) {
      if (value instanceof z.ZodType && /(Body|Response|Event)$/.test(exportName)) name(value, exportName);
    }
  }
}
