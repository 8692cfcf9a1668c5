import { z } from 'zod';
import { DateTime, Metadata, Timestamp, dateTimeBetween } from '../http/schemas';
import { BillingLineItemResponse, TaxAmountResponse } from '../billing/schemas';

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled', 'ended'] as const;
export const COMMAND_TYPES = [
  'ChangePrice',
  'CancelAtPeriodEnd',
  'Reactivate',
  'Pause',
  'Resume',
  'ChangePaymentMethod',
  'AddItem',
  'RemoveItem',
  'SetUsageThreshold',
] as const;
/** The commands that name a price. */
export const PRICE_COMMANDS: readonly CommandType[] = ['ChangePrice', 'AddItem', 'RemoveItem'];
export type CommandType = (typeof COMMAND_TYPES)[number];

const Id = z.string().trim().min(1).max(64);

const UsageThresholdAmount = z.int().min(1).max(1_000_000_000).nullable().meta({
  description:
    'Minor units: as soon as the current period’s unbilled usage amount reaches it, the usage so far is billed and charged on a record of its own, and counting starts again (the period end bills only what was added since). Needs metered items; null: usage is billed at the period end only.',
});

export const CreateSubscriptionBody = z.strictObject({
  customerId: Id,
  priceId: Id,
  paymentMethodId: Id.optional().meta({ description: "A saved payment method of the customer (pm_…); defaults to the customer's default method." }),
  paymentMethodRefId: Id.optional().meta({ description: 'Same as paymentMethodId (the name the checkout API uses).' }),
  metadata: Metadata.optional(),
  items: z
    .array(z.strictObject({ priceId: Id }))
    .max(20)
    .optional()
    .meta({
      description:
        'Metered prices billed in arrears at each period end, besides `priceId` (which may itself be metered): same currency, interval and intervalCount, one per feature.',
    }),
  usageThresholdAmount: UsageThresholdAmount.optional(),
});

export const CancelSubscriptionBody = z.strictObject({
  immediate: z.boolean().optional().meta({ description: 'true ends it now; false (default) keeps service to the period end.' }),
});

export const CommandBody = z.strictObject({
  type: z.enum(COMMAND_TYPES),
  priceId: Id.optional().meta({
    description:
      'ChangePrice: the new licensed Recurring price (same currency, interval and intervalCount). AddItem: a metered price to bill in arrears from now; RemoveItem: the metered item to stop billing (its usage so far is billed at the period end).',
  }),
  paymentMethodId: Id.optional().meta({
    description: "ChangePaymentMethod only: a saved method of the subscription's customer (pm_…); open past-due records are retried with it at once.",
  }),
  effectiveAt: DateTime.optional().meta({
    description: 'Omitted or not in the future: now. A future time schedules the change (not ChangePaymentMethod, which applies now).',
  }),
  usageThresholdAmount: UsageThresholdAmount.optional().meta({
    description: 'SetUsageThreshold only (applies now): the new usage threshold in minor units, or null to bill usage at the period end only.',
  }),
  reason: z.string().trim().min(1).max(500).optional(),
  expectedVersion: z
    .string()
    .regex(/^\d{1,9}$/, 'expectedVersion is the subscription version, a whole number such as "3".')
    .optional(),
});

export const PreviewBody = z.strictObject({ priceId: Id });

const BillingRecordShape = z.object({
  id: z.string(),
  status: z.enum(['open', 'paid', 'void', 'uncollectible']),
  amount: z.int(),
  currency: z.string(),
  description: z.string(),
  discountAmount: z.int().meta({ description: "The coupon's discount taken off this record (already out of amount)." }),
  taxAmount: z.int().meta({ description: 'All tax on the record (its exclusive part is in amount).' }),
  couponId: z.string().nullable(),
  paymentId: z.string().nullable(),
  kind: z
    .enum(['period', 'proration', 'usage'])
    .meta({ description: "`usage`: usage billed on its own record (a usage threshold reached, or an ended subscription's last usage)." }),
  periodIndex: z.int().nullable(),
  attempts: z.int(),
  nextAttemptAt: Timestamp.nullable(),
  paidAt: Timestamp.nullable(),
  createdAt: Timestamp,
});

export const SubscriptionDiscountResponse = z
  .object({
    couponId: z.string(),
    promotionCodeId: z.string(),
    code: z.string(),
    percentOff: z.int().nullable(),
    amountOff: z.int().nullable(),
    currency: z.string().nullable(),
    duration: z.enum(['once', 'repeating', 'forever']),
    durationInMonths: z.int().nullable(),
    start: Timestamp.meta({ description: 'Start of the first discounted (first paid) period.' }),
    end: Timestamp.nullable().meta({ description: 'Periods starting at or after this instant are not discounted; null for forever.' }),
  })
  .meta({ description: 'The coupon redeemed with a promotion code at checkout.' });

export const RenewalQuote = z.object({
  at: Timestamp,
  amount: z.int().meta({ description: 'The price before discount and credit.' }),
  discountAmount: z.int(),
  couponId: z.string().nullable(),
  taxAmount: z.int().meta({ description: "The price's tax at the rates that apply to the customer now (inclusive and exclusive)." }),
  creditApplied: z.int(),
  amountDue: z
    .int()
    .meta({ description: 'What the renewal charges for the price: less discount, plus exclusive tax, less account credit (usage comes on top).' }),
});

export const SubscriptionResponse = z.object({
  id: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  version: z.string().meta({ description: 'Send as Command.expectedVersion.' }),
  customerId: z.string(),
  priceId: z.string(),
  paymentMethodId: z.string().nullable(),
  currentPeriodIndex: z.int(),
  currentPeriodStart: Timestamp,
  currentPeriodEnd: Timestamp,
  trialEnd: Timestamp.nullable(),
  cancelAtPeriodEnd: z.boolean(),
  canceledAt: Timestamp.nullable(),
  endedAt: Timestamp.nullable(),
  pausedAt: Timestamp.nullable(),
  creditBalance: z.int(),
  usageThresholdAmount: z.int().nullable().meta({ description: 'The usage threshold (minor units), or null: usage is billed at the period end only.' }),
  discount: SubscriptionDiscountResponse.nullable(),
  testClockId: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const SubscriptionItemResponse = z.object({
  id: z.string(),
  priceId: z.string(),
  feature: z.string().meta({ description: 'The usage feature the item bills.' }),
  createdAt: Timestamp,
});

export const SubscriptionDetailResponse = SubscriptionResponse.extend({
  items: z
    .array(SubscriptionItemResponse)
    .meta({ description: 'The metered prices whose usage is billed in arrears at each period end (`priceId` among them when it is metered).' }),
  latestBillingRecord: BillingRecordShape.nullable(),
  upcomingRenewal: RenewalQuote.nullable().meta({ description: 'What the next renewal charges; null when it will not renew.' }),
  scheduledChanges: z.array(z.lazy(() => ChangeResponse)),
});

export const ChangeResponse = z.object({
  id: z.string(),
  subscriptionId: z.string(),
  type: z.string(),
  status: z.enum(['applied', 'scheduled', 'canceled']),
  fromPriceId: z.string().nullable(),
  toPriceId: z.string().nullable(),
  actor: z.string(),
  reason: z.string().nullable(),
  effectiveAt: Timestamp,
  version: z.string().nullable(),
  prorationAmount: z.int().nullable(),
  createdAt: Timestamp,
  appliedAt: Timestamp.nullable(),
});

export const UpcomingInvoiceResponse = z.object({
  subscriptionId: z.string(),
  at: Timestamp.meta({ description: 'When it will be billed: the end of the current period.' }),
  currency: z.string(),
  periodIndex: z.int().meta({ description: 'The period its price is billed for, in advance (the next one).' }),
  periodStart: Timestamp,
  periodEnd: Timestamp,
  lineItems: z
    .array(BillingLineItemResponse)
    .meta({ description: "As on the billing record: the price, the current period's usage so far (`usage`), discount and credits." }),
  subtotal: z.int(),
  discountAmount: z.int(),
  creditsApplied: z.int(),
  taxAmount: z.int().meta({ description: 'All tax, inclusive and exclusive, at the rates that apply to the customer now.' }),
  taxes: z.array(TaxAmountResponse),
  total: z.int().meta({ description: 'What would be charged if the period ended now.' }),
});

export const CommandResponse = z.object({ subscription: SubscriptionResponse, change: ChangeResponse });

export const PreviewResponse = z.object({
  subscriptionId: z.string(),
  fromPriceId: z.string(),
  toPriceId: z.string(),
  currency: z.string(),
  at: Timestamp,
  periodStart: Timestamp,
  periodEnd: Timestamp,
  prorated: z.boolean(),
  unusedCredit: z.int(),
  remainingCharge: z.int(),
  net: z.int(),
  creditBalanceBefore: z.int(),
  taxAmount: z
    .int()
    .meta({ description: 'The tax of the charge for the remaining time (inclusive and exclusive), at the new price’s rates for the customer.' }),
  amountDueNow: z.int().meta({ description: '`net` plus exclusive tax, less account credit; charged at once when positive.' }),
  creditBalanceAfter: z.int(),
  nextRenewal: RenewalQuote,
});

/** A test clock's time: from 2000 to 2100, so decades of subscription periods stay storable. */
export const TEST_CLOCK_RANGE = { from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' } as const;
const TestClockTime = dateTimeBetween(TEST_CLOCK_RANGE.from, TEST_CLOCK_RANGE.to);

export const CreateTestClockBody = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  frozenTime: TestClockTime.optional().meta({ description: 'Starting time (2000 to 2100); defaults to now.' }),
});
export const AttachTestClockCustomerBody = z.strictObject({ customerId: Id });
export const AdvanceTestClockBody = z.strictObject({ frozenTime: TestClockTime.meta({ description: 'The new time (2000 to 2100).' }) });

export const TestClockResponse = z.object({
  id: z.string(),
  name: z.string().nullable(),
  frozenTime: Timestamp,
  status: z.enum(['ready', 'advancing']).meta({
    description:
      '`advancing` from an Advance until every action due by `frozenTime` has run (an Advance cut off midway is finished by its retry or by the worker), then `ready`.',
  }),
  customerIds: z.array(z.string()),
  createdAt: Timestamp,
});
