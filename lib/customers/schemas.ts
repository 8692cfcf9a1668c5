import { z } from 'zod';
import { Email, Metadata, Timestamp } from '../http/schemas';

export const CUSTOMER_STATUSES = ['active', 'archived'] as const;

const customerFields = {
  email: Email.nullable(),
  name: z.string().trim().min(1).max(250).nullable(),
  externalId: z.string().trim().min(1).max(255).nullable().meta({ description: 'Your own id for this customer; unique among your customers.' }),
  metadata: Metadata,
  status: z.enum(CUSTOMER_STATUSES).meta({ description: 'active (default) or archived.' }),
};

export const CreateCustomerBody = z.strictObject({
  email: customerFields.email.optional(),
  name: customerFields.name.optional(),
  externalId: customerFields.externalId.optional(),
  metadata: customerFields.metadata.default({}),
  status: customerFields.status.default('active'),
});

/** Partial update: fields left out keep their value; `null` clears email, name or externalId. */
export const UpdateCustomerBody = z.strictObject({
  email: customerFields.email.optional(),
  name: customerFields.name.optional(),
  externalId: customerFields.externalId.optional(),
  metadata: customerFields.metadata.optional(),
  status: customerFields.status.optional(),
});

export const CustomerResponse = z.object({
  id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  externalId: z.string().nullable(),
  status: z.enum(CUSTOMER_STATUSES),
  metadata: z.record(z.string(), z.string()),
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
