import type { PaymentLinkStatus } from '@/lib/payment-links/payment-links';

/** How the console names each payment-link status, and its badge colour. */
export const PAYMENT_LINK_STATUS_LABELS = {
  active: ['Active', 'green'],
  disabled: ['Disabled', 'gray'],
  archived: ['Archived', 'gray'],
  completed: ['Used up', 'blue'],
  expired: ['Expired', 'red'],
} as const satisfies Record<PaymentLinkStatus, readonly [string, string]>;
