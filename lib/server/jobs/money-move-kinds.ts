import { checkoutMove } from '../../checkout/checkout-outcome';
import { subscriptionCheckoutMove } from '../../checkout/subscription-handoff';
import { subscriptionCreateMove } from '../../subscriptions/create';
import { prorationMove } from '../../subscriptions/price-change';
import { renewalMove } from '../../subscriptions/renewals';
import { dunningRetryMove } from '../../subscriptions/dunning';
import { finalUsageMove } from '../../subscriptions/final-usage';
import { thresholdUsageMove } from '../../subscriptions/usage-thresholds';

/**
 * Every kind of money move (lib/payments/money-moves.ts). Recovery finds a pending payment's kind
 * in the engine's registry; a process that recovers (the worker, the operator console) imports
 * this list so every kind is registered there.
 */
export const MONEY_MOVE_KINDS = [
  checkoutMove,
  subscriptionCheckoutMove,
  subscriptionCreateMove,
  prorationMove,
  renewalMove,
  dunningRetryMove,
  finalUsageMove,
  thresholdUsageMove,
];
