import { z } from 'zod';
import { Timestamp } from '../http/schemas';

export const PaymentMethodResponse = z.object({
  id: z.string(),
  customerId: z.string(),
  type: z.literal('card'),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.int(),
  expYear: z.int(),
  isDefault: z.boolean(),
  createdAt: Timestamp,
});
