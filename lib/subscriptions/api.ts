import { z } from 'zod';
import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { idParam } from '../http/schemas';
import {
  AdvanceTestClockBody,
  AttachTestClockCustomerBody,
  CancelSubscriptionBody,
  ChangeResponse,
  CommandBody,
  CommandResponse,
  CreateSubscriptionBody,
  CreateTestClockBody,
  PreviewBody,
  PreviewResponse,
  SUBSCRIPTION_STATUSES,
  SubscriptionDetailResponse,
  SubscriptionResponse,
  TestClockResponse,
  UpcomingInvoiceResponse,
} from './schemas';

const SubscriptionParams = idParam('subscriptionId', 'sub');
const TestClockParams = idParam('testClockId', 'clock');

export const listSubscriptionsOperation = defineOperation({
  id: 'listSubscriptions',
  method: 'GET',
  path: '/api/Subscription',
  tag: 'Subscriptions',
  summary: 'List subscriptions',
  scope: 'subscriptions:read',
  query: listQuery(['createdAt', 'currentPeriodEnd'], {
    customerId: z.string().min(1).optional(),
    priceId: z.string().min(1).optional(),
    status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  }),
  response: pageOf(SubscriptionResponse),
});

export const createSubscriptionOperation = defineOperation({
  id: 'createSubscription',
  method: 'POST',
  path: '/api/Subscription',
  tag: 'Subscriptions',
  summary: 'Start a subscription',
  description:
    'A price with `trialDays` starts `trialing` without a charge. Otherwise the first period is charged at once: 201 `active` when it succeeded, 402 `PAYMENT_DECLINED` (with the failed `payment`) and no subscription when it was declined. Emits `subscription.created`, `billing_record.created`, `payment.*`, `billing_record.paid` and `credit.granted`.',
  scope: 'subscriptions:write',
  body: CreateSubscriptionBody,
  response: SubscriptionDetailResponse,
  successStatus: 201,
  idempotency: 'required',
  financial: true,
  answers: {
    402: 'PAYMENT_DECLINED: the first payment was declined (`declineCode`, `payment`); no subscription starts.',
    409: 'INVALID_STATE: the price is inactive.',
  },
});

export const getSubscriptionOperation = defineOperation({
  id: 'getSubscription',
  method: 'GET',
  path: '/api/Subscription/{subscriptionId}',
  tag: 'Subscriptions',
  summary: 'Retrieve a subscription with its version, period, trial and latest billing record',
  scope: 'subscriptions:read',
  params: SubscriptionParams,
  response: SubscriptionDetailResponse,
});

export const getUpcomingInvoiceOperation = defineOperation({
  id: 'getUpcomingInvoice',
  method: 'GET',
  path: '/api/Subscription/{subscriptionId}/UpcomingInvoice',
  tag: 'Subscriptions',
  summary: 'What the next renewal would bill now: the next price in advance and the usage so far',
  description:
    "The lines of the billing record the next renewal would write if the current period ended now: the price for the next period in advance, the current period's usage of each metered item so far (priced as at renewal), the coupon and credits. Nothing is written.",
  scope: 'subscriptions:read',
  params: SubscriptionParams,
  response: UpcomingInvoiceResponse,
  answers: { 409: 'INVALID_STATE: the subscription will not renew (ended or canceled at its period end) or its collection is paused.' },
});

export const cancelSubscriptionOperation = defineOperation({
  id: 'cancelSubscription',
  method: 'POST',
  path: '/api/Subscription/{subscriptionId}/Cancel',
  tag: 'Subscriptions',
  summary: 'Cancel now or at the period end',
  description:
    '`immediate: true` ends it now (`subscription.canceled`, `subscription.ended`; open billing records are voided; no proration credit — refund explicitly if wanted). `immediate: false` (default) keeps service to the period end (`subscription.canceled` now, `subscription.ended` then).',
  scope: 'subscriptions:write',
  params: SubscriptionParams,
  body: CancelSubscriptionBody,
  response: SubscriptionDetailResponse,
  idempotency: 'required',
  financial: true,
  answers: { 409: 'INVALID_STATE: the subscription has ended, or is already canceled at its period end.' },
});

export const listSubscriptionChangesOperation = defineOperation({
  id: 'listSubscriptionChanges',
  method: 'GET',
  path: '/api/Subscription/{subscriptionId}/Change',
  tag: 'Subscriptions',
  summary: 'List the changes of a subscription',
  scope: 'subscriptions:read',
  params: SubscriptionParams,
  query: listQuery(['createdAt', 'effectiveAt']),
  response: pageOf(ChangeResponse),
});

export const commandSubscriptionOperation = defineOperation({
  id: 'commandSubscription',
  method: 'POST',
  path: '/api/Subscription/{subscriptionId}/Command',
  tag: 'Subscriptions',
  summary: 'Change a subscription: ChangePrice, CancelAtPeriodEnd, Reactivate, Pause, Resume',
  description:
    '`expectedVersion` (the `version` last read) must match or the answer is 409 `VERSION_CONFLICT`. A future `effectiveAt` schedules the change. ChangePrice prorates the rest of the period exactly: a positive net is charged now (402 if declined, nothing changed), a negative net becomes account credit used by the next renewals. Another currency or interval is refused (400).',
  scope: 'subscriptions:write',
  params: SubscriptionParams,
  body: CommandBody,
  response: CommandResponse,
  idempotency: 'required',
  financial: true,
  answers: {
    402: 'PAYMENT_DECLINED: the proration payment was declined; nothing changed.',
    409: 'VERSION_CONFLICT: `expectedVersion` is not the current version; INVALID_STATE: the command does not apply to the subscription state.',
  },
});

export const previewSubscriptionOperation = defineOperation({
  id: 'previewSubscription',
  method: 'POST',
  path: '/api/Subscription/{subscriptionId}/Preview',
  tag: 'Subscriptions',
  summary: 'Preview what a ChangePrice would charge or credit now and at the next renewal',
  scope: 'subscriptions:write',
  params: SubscriptionParams,
  body: PreviewBody,
  response: PreviewResponse,
  answers: { 409: 'INVALID_STATE: the subscription has ended or is past due.' },
});

export const listTestClocksOperation = defineOperation({
  id: 'listTestClocks',
  method: 'GET',
  path: '/api/TestClock',
  tag: 'Test clocks',
  summary: 'List sandbox test clocks',
  scope: 'subscriptions:read',
  query: listQuery(['createdAt']),
  response: pageOf(TestClockResponse),
});

export const createTestClockOperation = defineOperation({
  id: 'createTestClock',
  method: 'POST',
  path: '/api/TestClock',
  tag: 'Test clocks',
  summary: 'Create a sandbox test clock',
  scope: 'subscriptions:write',
  body: CreateTestClockBody,
  response: TestClockResponse,
  successStatus: 201,
  idempotency: 'optional',
});

export const getTestClockOperation = defineOperation({
  id: 'getTestClock',
  method: 'GET',
  path: '/api/TestClock/{testClockId}',
  tag: 'Test clocks',
  summary: 'Retrieve a test clock',
  scope: 'subscriptions:read',
  params: TestClockParams,
  response: TestClockResponse,
});

export const attachTestClockCustomerOperation = defineOperation({
  id: 'attachTestClockCustomer',
  method: 'POST',
  path: '/api/TestClock/{testClockId}/Customer',
  tag: 'Test clocks',
  summary: 'Attach a customer (before subscribing them) to a test clock',
  scope: 'subscriptions:write',
  params: TestClockParams,
  body: AttachTestClockCustomerBody,
  response: TestClockResponse,
  answers: { 409: 'CONFLICT: the customer is attached to another test clock; INVALID_STATE: the customer has a subscription on real time.' },
});

export const advanceTestClockOperation = defineOperation({
  id: 'advanceTestClock',
  method: 'POST',
  path: '/api/TestClock/{testClockId}/Advance',
  tag: 'Test clocks',
  summary: 'Move a test clock forward and run what became due',
  description:
    'Trial ends, renewals, dunning retries, scheduled changes and period-end cancellations run in time order within the request, as if the time had passed. ' +
    'The clock is `advancing` until they have all run. An Advance cut off midway (a crash) is finished by retrying it: with the same Idempotency-Key, or with the same `frozenTime` while the clock is `advancing`; otherwise the worker finishes it within a minute or two. `actionsRun` counts the actions this request ran.',
  scope: 'subscriptions:write',
  params: TestClockParams,
  body: AdvanceTestClockBody,
  response: TestClockResponse.extend({ actionsRun: z.int() }),
  answers: { 409: 'INVALID_STATE: the clock is still advancing (another Advance is running what became due); retry when its status is ready.' },
  idempotency: 'optional',
});
