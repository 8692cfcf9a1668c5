import { z } from 'zod';
import { Timestamp } from '../http/schemas';
import { PaymentResponse } from '../payments/schemas';
import { BILLING_LINE_KINDS } from '../db/schema';

export const BILLING_RECORD_STATUSES = ['open', 'paid', 'void', 'uncollectible'] as const;

export const TaxAmountResponse = z.object({
  taxRateId: z.string(),
  displayName: z.string(),
  percentage: z.string().meta({ description: 'Exact decimal string, e.g. `20` or `8.875`.' }),
  inclusive: z.boolean().meta({ description: 'true: the tax is inside the amounts taxed; false: added on top (a `tax` line).' }),
  country: z.string().nullable(),
  jurisdiction: z.string().nullable(),
  taxableAmount: z.int().meta({ description: 'What the rate was applied to, net of inclusive tax (minor units).' }),
  amount: z.int().meta({ description: 'The tax (minor units), rounded once per line and rate, half away from zero.' }),
});

export const BillingLineItemResponse = z.object({
  kind: z.enum(BILLING_LINE_KINDS).meta({
    description:
      "`one_time` (a checkout), `plan` (a subscription period), `proration` (a mid-period upgrade), `usage` (a metered price's usage of the period it names, billed in arrears: the ended period, usage arriving late for an earlier one, or the current one when a usage threshold is reached), `discount` (a coupon), `credit` (account credit or usage credits applied), `tax` (one exclusive tax rate's tax, added on top).",
  }),
  description: z.string(),
  priceId: z.string().nullable(),
  quantity: z.int().meta({ description: 'Usage lines: the units added since the period was last billed. Usage credit lines: the units the credits paid.' }),
  unitAmount: z.int().meta({
    description: 'Minor units per unit; on a usage line of a decimal or tiered price 0 (see `unitAmountDecimal`, `tiers`), and on a usage credit line 0.',
  }),
  amount: z.int().meta({ description: 'Minor units, signed: discount and credit lines are negative; the lines add up to `total`.' }),
  feature: z.string().optional().meta({ description: 'Usage lines and the credit lines paying them: the usage feature.' }),
  periodStart: Timestamp.optional().meta({
    description:
      'Usage lines: start of the period whose usage is billed (the ended period; an earlier one for late usage; the current one for a usage threshold). A later line of the same period bills only what its usage added.',
  }),
  periodEnd: Timestamp.optional(),
  unitAmountDecimal: z.string().optional().meta({ description: 'Usage lines of a decimal price: the exact unit amount in minor units.' }),
  tiers: z
    .array(
      z.object({
        tier: z.int(),
        upTo: z.int().nullable(),
        quantity: z.int(),
        unitAmountDecimal: z.string(),
        flatAmount: z.int(),
        amountDecimal: z.string().meta({ description: 'Exact, before the line is rounded (once, half up).' }),
      }),
    )
    .optional()
    .meta({ description: 'Usage lines of a tiered price: each tier the quantity reached.' }),
  taxes: z
    .array(TaxAmountResponse)
    .optional()
    .meta({ description: 'Charge and usage lines: the tax of the line per rate, on the line net of its discount and credits (docs/invoices.md, "Tax").' }),
  taxRateId: z.string().optional().meta({ description: '`tax` lines: the rate.' }),
});

/** The fields of a billing record that its `billing_record.*` events carry too (lib/billing/billing-records.ts). */
export const billingRecordFields = {
  id: z.string(),
  number: z
    .string()
    .nullable()
    .meta({
      description:
        "The invoice number: the seller's prefix and the next number of its gapless sequence (`ACME-0042`), given as the record's " +
        'transaction commits, so every record read back and every `billing_record.*` event carries one (docs/invoices.md, "Invoice numbers").',
      example: 'ACME-0042',
    }),
  status: z.enum(BILLING_RECORD_STATUSES),
  customerId: z.string(),
  subscriptionId: z.string().nullable().meta({ description: 'The subscription billed; null for a checkout of a one-time price.' }),
  periodIndex: z.int().nullable().meta({ description: 'The subscription period billed (0 = the first); a proration names the period it falls in.' }),
  periodStart: Timestamp.nullable(),
  periodEnd: Timestamp.nullable(),
  checkoutId: z.string().nullable(),
  paymentId: z.string().nullable().meta({ description: 'The latest payment attempt.' }),
  amount: z.int().meta({ description: 'Equal to `total` (kept for earlier clients).' }),
  currency: z.string(),
  description: z.string(),
  lineItems: z.array(BillingLineItemResponse),
  subtotal: z.int().meta({ description: 'Minor units, before the discount and credits.' }),
  discountAmount: z.int().meta({ description: "The coupon's discount (minor units)." }),
  creditsApplied: z.int().meta({ description: 'Account credit and usage credits taken off (minor units).' }),
  taxAmount: z.int().meta({ description: 'All tax on the record, inclusive and exclusive (minor units).' }),
  taxes: z.array(TaxAmountResponse).meta({ description: 'The tax per rate over all lines: what an invoice prints as its tax lines.' }),
  taxExempt: z
    .enum(['none', 'exempt', 'reverse'])
    .meta({ description: "The customer's tax status when the charge was planned; `reverse`: reverse charge, the buyer accounts for the tax." }),
  total: z.int().meta({ description: '`subtotal` - `discountAmount` - `creditsApplied` + the exclusive tax.' }),
  amountPaid: z.int().meta({ description: '`total` once paid, else 0.' }),
  amountDue: z.int().meta({ description: '`total` while open or uncollectible, else 0.' }),
  couponId: z.string().nullable(),
  hostedInvoiceUrl: z.string().meta({ description: 'The hosted invoice (receipt once paid) page, at a secret address: share it only with the customer.' }),
  invoicePdfUrl: z.string().meta({ description: 'The same invoice as a PDF.' }),
  paidAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const BillingRecordResponse = z.object({
  ...billingRecordFields,
  payments: z.array(PaymentResponse).meta({ description: 'Every payment attempt that tried to collect this record, oldest first.' }),
});

export const CreditNoteResponse = z.object({
  id: z.string(),
  number: z
    .string()
    .nullable()
    .meta({ description: "From the seller's credit-note sequence (`ACME-CN-0001`), given as the refund's outcome commits.", example: 'ACME-CN-0001' }),
  billingRecordId: z.string().meta({ description: 'The billing record (invoice) the credit note reduces.' }),
  invoiceNumber: z.string().nullable().meta({ description: "That invoice's number, the credit note's reference.", example: 'ACME-0042' }),
  refundId: z.string(),
  customerId: z.string(),
  currency: z.string(),
  amount: z.int().meta({ description: 'Minor units credited: the refund’s amount, tax included.' }),
  lineItems: z.array(z.object({ description: z.string(), quantity: z.int(), unitAmount: z.int(), amount: z.int() })),
  taxAmount: z.int().meta({ description: "The invoice's tax given back, in proportion to the amount refunded (inside `amount`)." }),
  taxes: z.array(TaxAmountResponse),
  reason: z.string().nullable().meta({ description: "The refund's reason." }),
  hostedUrl: z.string().meta({ description: 'The hosted credit note page: a secret address, as the invoice’s (no sign-in).' }),
  pdfUrl: z.string().meta({ description: 'The credit note as a PDF, at the same secret address.' }),
  createdAt: Timestamp,
});
