import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { merchants } from '../db/schema';
import { now } from '../clock';
import { notFound } from '../errors';
import { Email } from '../http/schemas';
import { findMerchantById, type MerchantRow } from './merchants';
import { requireTaxRates } from '../tax/tax-rates';
import { TaxRateIds } from '../catalog/schemas';
import { ACCOUNT_TYPES } from './schemas';

/** Whether this runtime knows the IANA zone (the console formats dates with it). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The lifecycle emails a seller can turn off, one setting each, as the API describes them and the console labels them. */
export const LIFECYCLE_EMAIL_OPTIONS = [
  {
    name: 'sendTrialEndingEmails',
    label: 'Trial ending',
    hint: '3 days before a trial ends: when the first charge is made and how much.',
  },
  {
    name: 'sendCancellationEmails',
    label: 'Subscription canceled or ended',
    hint: 'When a cancellation is scheduled for the period end (with the date it ends), and when a subscription ends.',
  },
  {
    name: 'sendRefundEmails',
    label: 'Refund issued',
    hint: 'When a refund succeeds: the amount, the invoice and its credit note.',
  },
  {
    name: 'sendPaymentFailedEmails',
    label: 'Renewal failed',
    hint: 'When a renewal charge is declined: a link to the portal to update the card.',
  },
  {
    name: 'sendCardExpiringEmails',
    label: 'Card expiring',
    hint: 'When the default card of a customer with a running subscription expires next month.',
  },
  {
    name: 'sendRenewalReminderEmails',
    label: 'Yearly renewal reminder',
    hint: '7 days before a yearly subscription renews: the date and the amount.',
  },
] as const;

export type LifecycleEmailSetting = (typeof LIFECYCLE_EMAIL_OPTIONS)[number]['name'];

const LIFECYCLE_EMAIL_SETTINGS = Object.fromEntries(
  LIFECYCLE_EMAIL_OPTIONS.map(({ name, label, hint }) => [
    name,
    z
      .boolean()
      .optional()
      .meta({ description: `Sends customers the "${label}" email. ${hint} On by default (docs/invoices.md, "Lifecycle emails").` }),
  ]),
) as Record<LifecycleEmailSetting, z.ZodOptional<z.ZodBoolean>>;

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();
/** Absent: unchanged; empty or null: cleared. */
const cleared = (value: string | null | undefined) => (value === undefined ? undefined : value || null);

export const AccountSettingsBody = z.strictObject({
  name: z.string().trim().min(1).max(250).optional().meta({ description: 'Business or personal name shown to customers.' }),
  accountType: z.enum(ACCOUNT_TYPES).optional(),
  supportEmail: Email.nullable().optional(),
  supportUrl: z
    .url({ protocol: /^https?$/, error: 'Enter an http(s) address, such as https://example.com/help.' })
    .max(2000)
    .nullable()
    .optional(),
  address: z
    .strictObject({
      line1: optionalText(200),
      line2: optionalText(200),
      city: optionalText(100),
      region: optionalText(100),
      postalCode: optionalText(20),
      country: z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{2}$/, 'A two-letter ISO 3166-1 country code, such as US or FR.')
        .nullable()
        .optional(),
    })
    .optional(),
  timeZone: z.string().trim().refine(isTimeZone, 'An IANA time zone, such as Europe/Paris or America/New_York.').optional(),
  sendReceipts: z
    .boolean()
    .optional()
    .meta({ description: 'Email customers a receipt, linking the hosted invoice and its PDF, after each successful payment (on by default).' }),
  ...LIFECYCLE_EMAIL_SETTINGS,
  legalName: optionalText(250).meta({ description: 'Registered name printed on invoices, when it differs from `name`.' }),
  taxId: optionalText(64).meta({ description: 'Your VAT or other tax id, printed on invoices.' }),
  invoiceFooter: optionalText(1000).meta({ description: 'Printed at the foot of every invoice: registration details, payment terms.' }),
  invoicePrefix: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9][A-Z0-9-]{0,19}$/, 'Letters, digits and dashes, at most 20, such as ACME or ACME-2026.')
    .nullable()
    .optional()
    .meta({
      description:
        "What invoice numbers start with (`ACME` → `ACME-0001`); null: the business name's letters and digits, upper case, at most 12. " +
        'A new prefix applies to the next number; the sequence goes on.',
    }),
  collectBillingAddress: z.boolean().optional().meta({
    description: 'The hosted checkout asks for the billing address and an optional tax id (off by default); the country chooses tax rates by country.',
  }),
  defaultTaxRateIds: TaxRateIds.optional().meta({
    description:
      'Tax rates (`txr_…`) for the lines of prices that name none; a rate with a country applies only to customers whose billing address is there (docs/invoices.md, "Tax").',
  }),
});

export type AccountSettingsInput = z.output<typeof AccountSettingsBody>;

/** The settings as the API and the console show them; `nextInvoiceNumber` from `nextInvoiceNumberOf`. */
export function toAccountSettings(row: MerchantRow, nextInvoiceNumber: string) {
  return {
    id: row.id,
    name: row.name,
    accountType: row.accountType,
    email: row.email,
    supportEmail: row.supportEmail,
    supportUrl: row.supportUrl,
    address: {
      line1: row.addressLine1,
      line2: row.addressLine2,
      city: row.addressCity,
      region: row.addressRegion,
      postalCode: row.addressPostalCode,
      country: row.addressCountry,
    },
    timeZone: row.timeZone,
    sendReceipts: row.sendReceipts,
    sendTrialEndingEmails: row.sendTrialEndingEmails,
    sendCancellationEmails: row.sendCancellationEmails,
    sendRefundEmails: row.sendRefundEmails,
    sendPaymentFailedEmails: row.sendPaymentFailedEmails,
    sendCardExpiringEmails: row.sendCardExpiringEmails,
    sendRenewalReminderEmails: row.sendRenewalReminderEmails,
    legalName: row.legalName,
    taxId: row.taxId,
    invoiceFooter: row.invoiceFooter,
    invoicePrefix: row.invoicePrefix,
    defaultTaxRateIds: row.defaultTaxRateIds,
    collectBillingAddress: row.collectBillingAddress,
    nextInvoiceNumber,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The number the seller's next invoice gets, by the same database function that numbers it (migration 0044_invoice_numbers). */
export async function nextInvoiceNumberOf(db: Db, merchantId: string): Promise<string> {
  const result = await db.execute<{ number: string }>(sql`
    select document_number(${merchantId}, 'invoice', coalesce((select last_number from document_sequences where merchant_id = ${merchantId} and kind = 'invoice'), 0) + 1) as number`);
  return result.rows[0]!.number;
}

export async function getAccountSettings(db: Db, merchantId: string) {
  const row = await findMerchantById(db, merchantId);
  if (!row) throw notFound('seller account', merchantId);
  return toAccountSettings(row, await nextInvoiceNumberOf(db, merchantId));
}

/** Changes the fields present in the input (null clears an optional one). */
export async function updateAccountSettings(tx: Db, merchantId: string, input: AccountSettingsInput) {
  const address: Partial<NonNullable<AccountSettingsInput['address']>> = input.address ?? {};
  const changes = {
    name: input.name,
    accountType: input.accountType,
    supportEmail: input.supportEmail === undefined ? undefined : (input.supportEmail?.toLowerCase() ?? null),
    supportUrl: input.supportUrl,
    addressLine1: cleared(address.line1),
    addressLine2: cleared(address.line2),
    addressCity: cleared(address.city),
    addressRegion: cleared(address.region),
    addressPostalCode: cleared(address.postalCode),
    addressCountry: cleared(address.country),
    timeZone: input.timeZone,
    sendReceipts: input.sendReceipts,
    sendTrialEndingEmails: input.sendTrialEndingEmails,
    sendCancellationEmails: input.sendCancellationEmails,
    sendRefundEmails: input.sendRefundEmails,
    sendPaymentFailedEmails: input.sendPaymentFailedEmails,
    sendCardExpiringEmails: input.sendCardExpiringEmails,
    sendRenewalReminderEmails: input.sendRenewalReminderEmails,
    legalName: cleared(input.legalName),
    taxId: cleared(input.taxId),
    invoiceFooter: cleared(input.invoiceFooter),
    invoicePrefix: input.invoicePrefix === undefined ? undefined : input.invoicePrefix || null,
    defaultTaxRateIds: input.defaultTaxRateIds,
    collectBillingAddress: input.collectBillingAddress,
  };
  if (input.defaultTaxRateIds) await requireTaxRates(tx, merchantId, input.defaultTaxRateIds, 'defaultTaxRateIds');
  const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  const [row] = await tx
    .update(merchants)
    .set({ ...set, updatedAt: now() })
    .where(eq(merchants.id, merchantId))
    .returning();
  if (!row) throw notFound('seller account', merchantId);
  return toAccountSettings(row, await nextInvoiceNumberOf(tx, merchantId));
}
