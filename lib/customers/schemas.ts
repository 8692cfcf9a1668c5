import { z } from 'zod';
import { Email, Metadata, Timestamp } from '../http/schemas';

export const CUSTOMER_STATUSES = ['active', 'archived'] as const;
export const TAX_EXEMPTIONS = ['none', 'exempt', 'reverse'] as const;

const addressLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((value) => value || null);

/** A postal address; every part optional, `country` ISO 3166-1 alpha-2. */
export const PostalAddressBody = z.strictObject({
  line1: addressLine(200),
  line2: addressLine(200),
  city: addressLine(100),
  region: addressLine(100),
  postalCode: addressLine(20),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'A two-letter ISO 3166-1 country code, such as US or FR.')
    .nullable()
    .optional()
    .transform((value) => value ?? null),
});

/** What a checkout (the API's and a payment link's Complete) may say about its buyer, saved on the customer before tax is chosen. */
export const CheckoutBuyerFields = {
  billingAddress: PostalAddressBody.optional().meta({
    description: "The customer's billing address, saved on the customer: printed on the invoice, and its country chooses tax rates by country.",
  }),
  customerTaxId: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: "The customer's VAT or other tax id, saved on the customer and printed on the invoice." }),
};

const PostalAddressResponse = z.object({
  line1: z.string().nullable(),
  line2: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable(),
});

const customerFields = {
  email: Email.nullable(),
  name: z.string().trim().min(1).max(250).nullable(),
  externalId: z.string().trim().min(1).max(255).nullable().meta({ description: 'Your own id for this customer; unique among your customers.' }),
  metadata: Metadata,
  status: z.enum(CUSTOMER_STATUSES).meta({ description: 'active (default) or archived.' }),
  address: PostalAddressBody.nullable().meta({ description: 'Billing address printed on invoices; null clears it.' }),
  taxId: z.string().trim().min(1).max(64).nullable().meta({ description: 'VAT or other tax id printed on invoices, e.g. `DE123456789`.' }),
  taxExempt: z
    .enum(TAX_EXEMPTIONS)
    .meta({ description: '`none` (default), `exempt` (charged no tax) or `reverse` (reverse charge: no tax, the invoice says so).' }),
};

export const CreateCustomerBody = z.strictObject({
  email: customerFields.email.optional(),
  name: customerFields.name.optional(),
  externalId: customerFields.externalId.optional(),
  metadata: customerFields.metadata.default({}),
  status: customerFields.status.default('active'),
  address: customerFields.address.optional(),
  taxId: customerFields.taxId.optional(),
  taxExempt: customerFields.taxExempt.default('none'),
});

/** Partial update: fields left out keep their value; `null` clears email, name or externalId. */
export const UpdateCustomerBody = z.strictObject({
  email: customerFields.email.optional(),
  name: customerFields.name.optional(),
  externalId: customerFields.externalId.optional(),
  metadata: customerFields.metadata.optional(),
  status: customerFields.status.optional(),
  address: customerFields.address.optional(),
  taxId: customerFields.taxId.optional(),
  taxExempt: customerFields.taxExempt.optional(),
});

export const CustomerResponse = z.object({
  id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  externalId: z.string().nullable(),
  status: z.enum(CUSTOMER_STATUSES),
  metadata: z.record(z.string(), z.string()),
  address: PostalAddressResponse.nullable(),
  taxId: z.string().nullable(),
  taxExempt: z.enum(TAX_EXEMPTIONS),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const MAX_CUSTOM_VALUES = 100;

export const CustomValueKey = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, 'Letters, digits and _ . : - (at most 64), starting with a letter or digit.');

export const CustomValueBody = z.strictObject({
  key: CustomValueKey,
  value: z.string().max(1000),
});

export const CustomValueResponse = z.object({
  key: z.string(),
  value: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
