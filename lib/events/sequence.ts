import { z } from 'zod';

/** An event's `sequence` (docs/webhooks.md, "Ordering"). */
export const EventSequence = z.int().min(1).meta({
  description:
    "The seller's event counter: larger for every later event of the seller (in commit order; gaps possible), never shared by two. Deliveries can arrive out of order (a retry); compare `sequence` to put them back in order or to ignore an older state.",
});
