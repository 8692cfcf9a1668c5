import { z } from 'zod';
import { Timestamp } from '../http/schemas';

const Country = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'A two-letter ISO 3166-1 country code, such as DE or US.');

export const CreateTaxRateBody = z.strictObject({
  displayName: z.string().trim().min(1).max(50).meta({ description: 'What invoices print beside the tax, e.g. `VAT`, `GST`, `Sales tax`.' }),
  description: z.string().trim().max(500).nullable().optional(),
  percentage: z
    .string()
    .trim()
    .regex(/^\d{1,2}(\.\d{1,4})?$/, 'A decimal from 0 to 99.9999 with at most 4 decimals, as a string, such as "20" or "8.875".')
    .meta({ description: 'Exact decimal string (0 to 99.9999, at most 4 decimals). Cannot change once created.', example: '20' }),
  inclusive: z.boolean().meta({ description: 'true: included in the prices it applies to (VAT-style); false: added on top. Cannot change once created.' }),
  country: Country.nullable().optional().meta({ description: 'ISO 3166-1 alpha-2 country the rate is for; null or absent: any country.' }),
  jurisdiction: z.string().trim().min(1).max(100).nullable().optional().meta({ description: 'A state, province or region within the country, e.g. `CA`.' }),
  active: z.boolean().default(true),
});

/** What can change: the words and whether it is offered; never the rate, nor whether it is inclusive (issued invoices used them). */
export const UpdateTaxRateBody = z.strictObject({
  displayName: z.string().trim().min(1).max(50).optional(),
  description: z.string().trim().max(500).nullable().optional(),
  jurisdiction: z.string().trim().min(1).max(100).nullable().optional(),
  active: z.boolean().optional().meta({ description: 'false archives it: kept on what used it, offered for nothing new.' }),
});

export const TaxRateResponse = z.object({
  id: z.string(),
  displayName: z.string(),
  description: z.string().nullable(),
  percentage: z.string().meta({ example: '20' }),
  inclusive: z.boolean(),
  country: z.string().nullable(),
  jurisdiction: z.string().nullable(),
  active: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
