import type { EventObject, EventType } from '../events/types';

/**
 * Every event type with the operations that emit it and a sample `data` (the shape a real event
 * of that type carries). The Test endpoint sends these; docs/webhooks.md lists the same table.
 */

const at = '2026-01-15T10:00:00.000Z';
const customer = {
  id: 'cus_01KEXAMPLE0CUSTOMER000000',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  externalId: 'user_42',
  status: 'active',
  metadata: {},
  address: { line1: '12 St James Square', line2: null, city: 'London', region: null, postalCode: 'SW1Y 4JH', country: 'GB' },
  taxId: 'GB123456789',
  taxExempt: 'none',
  createdAt: at,
  updatedAt: at,
};
const product = { id: 'prod_01KEXAMPLE0PRODUCT0000000', name: 'Pro plan', description: null, active: true, metadata: {}, createdAt: at, updatedAt: at };
const price = {
  id: 'price_01KEXAMPLE0PRICE00000000',
  productId: product.id,
  type: 'Recurring',
  amount: 1999,
  currency: 'USD',
  interval: 'month',
  intervalCount: 1,
  trialDays: null,
  usageType: 'licensed',
  feature: null,
  aggregation: null,
  aggregationProperty: null,
  unitAmountDecimal: null,
  tiers: null,
  tiersMode: null,
  packageSize: null,
  taxRateIds: [],
  active: true,
  createdAt: at,
  updatedAt: at,
};
const period = {
  subscriptionId: 'sub_01KEXAMPLE0SUBSCRIPTION00',
  periodIndex: 1,
  periodStart: '2026-01-15T10:00:00.000Z',
  periodEnd: '2026-02-15T10:00:00.000Z',
};
const subscription = {
  id: period.subscriptionId,
  status: 'active',
  version: '4',
  customerId: customer.id,
  priceId: price.id,
  paymentMethodId: 'pm_01KEXAMPLE0PAYMENTMETHOD0',
  currentPeriodIndex: 1,
  currentPeriodStart: period.periodStart,
  currentPeriodEnd: period.periodEnd,
  trialEnd: null,
  cancelAtPeriodEnd: false,
  canceledAt: null,
  endedAt: null,
  pausedAt: null,
  creditBalance: 0,
  usageThresholdAmount: null,
  discount: null,
  testClockId: null,
  metadata: {},
  createdAt: '2025-12-15T10:00:00.000Z',
  updatedAt: at,
};
const payment = {
  id: 'pay_01KEXAMPLE0PAYMENT0000000',
  status: 'succeeded',
  amount: 1999,
  amountRefunded: 0,
  currency: 'USD',
  customerId: customer.id,
  checkoutId: null,
  paymentMethodId: subscription.paymentMethodId,
  card: { brand: 'visa', last4: '4242' },
  description: 'Pro plan — subscription period 2',
  failureCode: null,
  failureMessage: null,
  nextAction: null,
  processor: { name: 'stripe', mode: 'test', reference: 'pi_3QExample0PaymentIntent00' },
  metadata: {},
  settledAt: at,
  createdAt: at,
  updatedAt: at,
  ...period,
};
const billingRecord = {
  id: 'br_01KEXAMPLE0BILLINGRECORD00',
  number: 'ACME-0042',
  status: 'open',
  customerId: customer.id,
  checkoutId: null,
  paymentId: payment.id,
  amount: 1999,
  currency: 'USD',
  description: payment.description,
  lineItems: [{ kind: 'plan', description: payment.description, priceId: price.id, quantity: 1, unitAmount: 1999, amount: 1999 }],
  subtotal: 1999,
  discountAmount: 0,
  creditsApplied: 0,
  taxAmount: 0,
  taxes: [],
  taxExempt: 'none',
  total: 1999,
  amountPaid: 0,
  amountDue: 1999,
  couponId: null,
  hostedInvoiceUrl: 'https://pay.example.com/invoice/4f1c2b7e9d0a4e6b8c3f5a7d9e1b3c5d2a4f6e8b0c1d3e5f7a9b2c4d6e8f0a1b3c5',
  invoicePdfUrl: 'https://pay.example.com/invoice/4f1c2b7e9d0a4e6b8c3f5a7d9e1b3c5d2a4f6e8b0c1d3e5f7a9b2c4d6e8f0a1b3c5/pdf',
  paidAt: null,
  createdAt: at,
  updatedAt: at,
  ...period,
};
const refund = {
  id: 're_01KEXAMPLE0REFUND00000000',
  paymentId: payment.id,
  status: 'succeeded',
  amount: 500,
  currency: 'USD',
  reason: null,
  failureMessage: null,
  processor: { name: 'stripe', mode: 'test', reference: 're_3QExample0Refund000000000' },
  metadata: { supportTicket: 'T-1042' },
  createdAt: at,
  updatedAt: at,
};
const dispute = {
  id: 'dsp_01KEXAMPLE0DISPUTE0000000',
  paymentId: payment.id,
  status: 'needs_response',
  amount: 1999,
  currency: 'USD',
  reason: 'fraudulent',
  evidenceDueBy: '2026-01-25T23:59:59.000Z',
  evidence: {},
  evidenceSubmissionCount: 0,
  fundsWithdrawn: true,
  fundsReinstated: false,
  processor: { name: 'stripe', mode: 'test', reference: 'dp_1QExample0Dispute00000000' },
  closedAt: null,
  createdAt: at,
  updatedAt: at,
};
const submittedEvidence = { productDescription: 'Pro plan, monthly', uncategorizedText: 'The customer used the service all month (access log attached).' };
const paymentLink = {
  id: 'plink_01KEXAMPLE0PAYMENTLINK0',
  token: 'Zx3sExampleToken0000000000',
  url: 'https://pay.example.com/pay/Zx3sExampleToken0000000000',
  status: 'active',
  priceId: null,
  items: [],
  name: 'Consulting hour',
  description: null,
  unitAmount: 5000,
  amount: 5000,
  currency: 'USD',
  quantity: 1,
  adjustableQuantity: { enabled: false, minimum: 1, maximum: 99 },
  singleUse: false,
  maxCompletions: null,
  completionCount: 0,
  expiresAt: null,
  successUrl: null,
  designId: null,
  metadata: {},
  createdAt: at,
  updatedAt: at,
};
const paymentMethod = {
  id: subscription.paymentMethodId,
  customerId: customer.id,
  type: 'card',
  brand: 'visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2034,
  isDefault: true,
  processor: { name: 'stripe', mode: 'test', reference: 'pm_1QExample0PaymentMethod000' },
  createdAt: at,
};
const usage = {
  id: 'usg_01KEXAMPLE0USAGE00000000',
  externalId: 'msg_8c1f',
  customerId: customer.id,
  feature: 'api_calls',
  quantity: 1,
  amount: 0,
  creditsUsed: 0,
  periodKey: `${subscription.id}:1`,
  properties: {},
  timestamp: at,
  reversedAt: null,
  createdAt: at,
};
const creditBalanceChange = {
  customerId: customer.id,
  feature: 'api_calls',
  granted: 1000,
  lowThresholdPercent: 20,
  latestGrantId: 'cgr_01KEXAMPLE0CREDITGRANT00',
};

export interface EventSample {
  emittedBy: string;
  data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
}

export const EVENT_SAMPLES: Record<EventType, EventSample> = {
  'product.created': { emittedBy: 'POST /api/Product', data: { object: product } },
  'product.updated': {
    emittedBy: 'PUT /api/Product/{id} (also archiving: active false)',
    data: { object: { ...product, active: false }, previousAttributes: { active: true } },
  },
  'price.created': { emittedBy: 'POST /api/Price', data: { object: price } },
  'price.updated': { emittedBy: 'PUT /api/Price/{id} (deactivation)', data: { object: { ...price, active: false }, previousAttributes: { active: true } } },
  'customer.created': { emittedBy: 'POST /api/Customer; a checkout with a new customerEmail', data: { object: customer } },
  'customer.updated': {
    emittedBy: 'PUT /api/Customer/{id} (also archiving: status archived)',
    data: { object: { ...customer, name: 'Ada King' }, previousAttributes: { name: 'Ada Lovelace' } },
  },
  'subscription.created': { emittedBy: 'POST /api/Subscription; a checkout of a Recurring price', data: { object: subscription } },
  'subscription.updated': {
    emittedBy:
      'Command (ChangePrice, Pause, Resume, CancelAtPeriodEnd, Reactivate, ChangePaymentMethod, AddItem, RemoveItem, SetUsageThreshold), Cancel, renewals and dunning that change the status, a renewal drafted at its boundary (metered items: the period moves, the charge follows after the grace window), a new default card',
    data: { object: { ...subscription, pausedAt: at }, previousAttributes: { pausedAt: null } },
  },
  'subscription.canceled': {
    emittedBy: 'Cancel; Command CancelAtPeriodEnd; the portal',
    data: { object: { ...subscription, status: 'canceled', cancelAtPeriodEnd: true, canceledAt: at } },
  },
  'subscription.ended': {
    emittedBy: 'Cancel immediate; the period end after a cancellation; the last failed dunning retry',
    data: { object: { ...subscription, status: 'ended', endedAt: at } },
  },
  'billing_record.created': {
    emittedBy:
      "every charge: checkout, subscription start, renewal, proration, usage billed on its own (a usage threshold, an ended subscription's last usage) (before the payment event)",
    data: { object: billingRecord },
  },
  'billing_record.paid': {
    emittedBy: 'a charge that succeeds (after the payment event); reconciliation of an unknown payment',
    data: { object: { ...billingRecord, status: 'paid', amountPaid: 1999, amountDue: 0, paidAt: at } },
  },
  'payment.succeeded': { emittedBy: 'checkouts, payment links, subscription charges and dunning retries; reconciliation', data: { object: payment } },
  'payment.failed': {
    emittedBy: 'the same, when the card declines',
    data: {
      object: { ...payment, status: 'failed', card: { brand: 'visa', last4: '0002' }, failureCode: 'card_declined', failureMessage: 'Your card was declined.' },
    },
  },
  'payment.unknown': {
    emittedBy: 'the same, when the processor does not answer in time (settled PAYMENT_RECONCILE_DELAY_MS later)',
    data: { object: { ...payment, status: 'unknown', settledAt: null } },
  },
  'refund.requested': { emittedBy: 'POST /api/Payment/{id}/Refund; a console refund', data: { object: { ...refund, status: 'requested' } } },
  'refund.succeeded': { emittedBy: 'the same, when the processor refunds', data: { object: refund } },
  'refund.failed': {
    emittedBy: 'the same, when the processor refuses',
    data: { object: { ...refund, status: 'failed', failureMessage: 'The card issuer refused the refund.' } },
  },
  'payment_link.created': { emittedBy: 'POST /api/PaymentLink; Duplicate', data: { object: paymentLink } },
  'payment_link.updated': {
    emittedBy: 'PUT /api/PaymentLink/{id}; Disable, Enable, Archive',
    data: { object: { ...paymentLink, status: 'disabled' }, previousAttributes: { status: 'active' } },
  },
  'payment_link.completed': {
    emittedBy: 'a paid checkout of the link (Complete, the hosted page)',
    data: { object: { ...paymentLink, completionCount: 1, checkoutId: 'cs_01KEXAMPLE0CHECKOUT000000', paymentId: payment.id } },
  },
  'payment_method.attached': {
    emittedBy: 'POST /api/Customer/{id}/PaymentMethod; the portal; a checkout that keeps the card',
    data: { object: paymentMethod },
  },
  'payment_method.detached': {
    emittedBy: 'DELETE /api/Customer/{id}/PaymentMethod/{pmId}; the portal',
    data: { object: { ...paymentMethod, isDefault: false } },
  },
  'dispute.created': {
    emittedBy: "Stripe's webhook `charge.dispute.created` (processed by the worker, from the dispute read back from Stripe)",
    data: { object: dispute },
  },
  'dispute.updated': {
    emittedBy: "POST /api/Dispute/{id}/Evidence; the console's evidence form; Stripe's `charge.dispute.updated`, `funds_withdrawn` and `funds_reinstated`",
    data: {
      object: { ...dispute, status: 'under_review', evidence: submittedEvidence, evidenceSubmissionCount: 1 },
      previousAttributes: { status: 'needs_response', evidence: {}, evidenceSubmissionCount: 0 },
    },
  },
  'dispute.closed': {
    emittedBy: "Stripe's `charge.dispute.closed` (won, lost, an inquiry closed, prevented); `fundsReinstated` tells whether the money came back",
    data: {
      object: { ...dispute, status: 'won', evidence: submittedEvidence, evidenceSubmissionCount: 1, fundsReinstated: true, closedAt: at },
      previousAttributes: { status: 'under_review', fundsReinstated: false, closedAt: null },
    },
  },
  'credit_note.created': {
    emittedBy: 'a refund that succeeds (POST /api/Payment/{id}/Refund, the console, the portal), against the invoice the payment paid',
    data: {
      object: {
        id: 'cn_01KEXAMPLE0CREDITNOTE00000',
        number: 'ACME-CN-0001',
        billingRecordId: billingRecord.id,
        invoiceNumber: billingRecord.number,
        refundId: 're_01KEXAMPLE0REFUND00000000',
        customerId: customer.id,
        currency: 'USD',
        amount: 500,
        lineItems: [{ description: `Partial refund of invoice ${billingRecord.number}`, quantity: 1, unitAmount: 500, amount: 500 }],
        taxAmount: 0,
        taxes: [],
        reason: 'requested_by_customer',
        hostedUrl: 'https://pay.example.com/credit-note/9c2e4a6b8d0f1e3c5a7b9d1f3e5c7a9b0d2f4e6a8c1b3d5f7e9a2c4b6d8f0e1a3',
        pdfUrl: 'https://pay.example.com/credit-note/9c2e4a6b8d0f1e3c5a7b9d1f3e5c7a9b0d2f4e6a8c1b3d5f7e9a2c4b6d8f0e1a3/pdf',
        createdAt: at,
      },
    },
  },
  'usage.recorded': {
    emittedBy:
      'POST /api/Usage (new records only, not a repeated id), POST /api/Usage/Batch (one per new record), POST /api/Customer/{id}/Entitlement/Check with consume: true when allowed',
    data: { object: usage },
  },
  'usage.reversed': { emittedBy: 'POST /api/Usage/{usageId}/Reverse', data: { object: usage } },
  'credit.granted': {
    emittedBy: 'a paid subscription period or a paid checkout of a one-time price whose entitlement policy grants credits; POST /api/Customer/{id}/CreditGrant',
    data: {
      object: {
        id: 'cgr_01KEXAMPLE0CREDITGRANT00',
        customerId: customer.id,
        feature: 'api_calls',
        source: 'period',
        amount: 1000,
        remaining: 1000,
        expiresAt: period.periodEnd,
        reason: 'Pro plan, period 1',
        subscriptionId: subscription.id,
        periodIndex: 1,
        createdAt: at,
        priceId: price.id,
      },
    },
  },
  'credit.low': {
    emittedBy: 'the operations that record usage, when drawing credits brings a feature balance to 20 % or less of what its live grants gave (once per top-up)',
    data: { object: { ...creditBalanceChange, balance: 150 } },
  },
  'credit.exhausted': {
    emittedBy: 'the operations that record usage, when drawing credits brings a feature balance to 0 (once per top-up)',
    data: { object: { ...creditBalanceChange, balance: 0 } },
  },
  'entitlement.changed': {
    emittedBy:
      'POST /api/Customer/{id}/EntitlementOverride; subscription ChangePrice, a subscription ending and a paid one-time purchase when a price involved has a policy',
    data: {
      object: {
        id: 'entovr_01KEXAMPLE0OVERRIDE00',
        customerId: customer.id,
        feature: 'api_calls',
        allowed: 'Limited',
        limit: 1000,
        limitAmount: null,
        createdAt: at,
        updatedAt: at,
      },
    },
  },
  'entitlement.exhausted': {
    emittedBy: 'the operations that record usage, when the period usage reaches limit or its spend reaches limitAmount (once per period and line)',
    data: {
      object: {
        customerId: customer.id,
        feature: 'api_calls',
        limit: 1000,
        limitAmount: null,
        used: 1000,
        spent: 0,
        reached: 'limit',
        periodKey: `${subscription.id}:1`,
        periodStart: period.periodStart,
        periodEnd: period.periodEnd,
      },
    },
  },
};

/** A documented sample object of `type` with an id of the caller's (load tests and benchmarks that record events directly). */
export function sampleEventObject<T extends EventType>(type: T, id: string): EventObject<T> {
  // The samples are held to EVENT_OBJECTS by tests/unit/event-samples.test.ts.
  return { ...EVENT_SAMPLES[type].data.object, id } as EventObject<T>;
}
