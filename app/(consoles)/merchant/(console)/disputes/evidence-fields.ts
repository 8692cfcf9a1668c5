import type { DisputeEvidenceField } from '@/lib/db/schema';

/** The evidence form's fields in groups, with the words Stripe's dashboard uses for them. */
export const EVIDENCE_GROUPS: { legend: string; fields: { name: DisputeEvidenceField; label: string; long?: boolean; hint?: string }[] }[] = [
  {
    legend: 'The purchase',
    fields: [
      { name: 'productDescription', label: 'Product or service description', long: true },
      { name: 'customerName', label: 'Customer name' },
      { name: 'customerEmailAddress', label: 'Customer email' },
      { name: 'customerPurchaseIp', label: 'Customer IP address at purchase' },
      { name: 'billingAddress', label: 'Billing address' },
      { name: 'serviceDate', label: 'Service date', hint: 'When the customer received or began receiving the service, in words or a date.' },
      {
        name: 'accessActivityLog',
        label: 'Access or activity log',
        long: true,
        hint: 'Sign-ins, downloads or use of the product, with times and IP addresses.',
      },
    ],
  },
  {
    legend: 'Shipping',
    fields: [
      { name: 'shippingAddress', label: 'Shipping address' },
      { name: 'shippingCarrier', label: 'Carrier' },
      { name: 'shippingTrackingNumber', label: 'Tracking number' },
      { name: 'shippingDate', label: 'Shipping date' },
    ],
  },
  {
    legend: 'Policies',
    fields: [
      { name: 'refundPolicyDisclosure', label: 'How the refund policy was shown', long: true },
      { name: 'refundRefusalExplanation', label: 'Why no refund is due', long: true },
      { name: 'cancellationPolicyDisclosure', label: 'How the cancellation policy was shown', long: true },
      { name: 'cancellationRebuttal', label: 'Why the subscription was not canceled', long: true },
    ],
  },
  {
    legend: 'Duplicate charge',
    fields: [
      { name: 'duplicateChargeId', label: 'Stripe id of the other charge' },
      { name: 'duplicateChargeExplanation', label: 'How the two charges differ', long: true },
    ],
  },
  {
    legend: 'Anything else',
    fields: [{ name: 'uncategorizedText', label: 'Other evidence', long: true, hint: 'Anything else the issuer should read.' }],
  },
];
