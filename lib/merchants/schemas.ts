import { z } from 'zod';
import { Timestamp } from '../http/schemas';
import { SELLER_ROLES } from './roles';

export const ACCOUNT_TYPES = ['Business', 'Individual'] as const;

export const Role = z.enum(SELLER_ROLES).meta({ description: 'Owner, Admin, Developer, Support or ReadOnly.' });

export const SellerUserResponse = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(['Owner', 'Admin', 'Developer', 'Support', 'ReadOnly']),
  emailVerified: z.boolean(),
  twoFactorEnabled: z.boolean(),
  createdAt: Timestamp,
});

/** The seller account as the sign-in APIs and the admin console show it (`toMerchantResponse`). */
export const MerchantResponse = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  accountType: z.enum(ACCOUNT_TYPES),
  status: z.enum(['active', 'suspended']),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const NullableText = z.string().nullable();

/** The seller account's settings (`toAccountSettings`). */
export const AccountSettingsResponse = z.object({
  id: z.string(),
  name: z.string(),
  accountType: z.enum(ACCOUNT_TYPES),
  email: z.string(),
  supportEmail: NullableText,
  supportUrl: NullableText,
  address: z.object({ line1: NullableText, line2: NullableText, city: NullableText, region: NullableText, postalCode: NullableText, country: NullableText }),
  timeZone: z.string().meta({ description: 'IANA time zone.' }),
  sendReceipts: z.boolean(),
  sendTrialEndingEmails: z.boolean(),
  sendCancellationEmails: z.boolean(),
  sendRefundEmails: z.boolean(),
  sendPaymentFailedEmails: z.boolean(),
  sendCardExpiringEmails: z.boolean(),
  sendRenewalReminderEmails: z.boolean(),
  legalName: NullableText,
  taxId: NullableText,
  invoiceFooter: NullableText,
  invoicePrefix: NullableText.meta({ description: 'The prefix set in Settings; null: made from the business name (docs/invoices.md, "Invoice numbers").' }),
  defaultTaxRateIds: z.array(z.string()).meta({ description: 'Tax rates of prices that name none (a rate with a country: only for customers there).' }),
  collectBillingAddress: z.boolean().meta({ description: 'The hosted checkout asks for the billing address and an optional tax id.' }),
  nextInvoiceNumber: z.string().meta({ description: 'The number the next invoice gets, e.g. `ACME-0004`.', example: 'ACME-0004' }),
  updatedAt: Timestamp,
});

/** The holder of an access token, by `userType`; a seller's is its account plus the signed-in `user` and its `role`. */
export const IdentityResponse = z.discriminatedUnion('userType', [
  z.object({ userType: z.literal('Admin'), id: z.string(), name: z.string(), createdAt: Timestamp }),
  MerchantResponse.extend({ userType: z.literal('Merchant'), role: Role, user: SellerUserResponse }),
  z.object({ userType: z.literal('Member'), id: z.string(), email: z.string(), createdAt: Timestamp }),
]);
