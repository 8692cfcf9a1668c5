import { now } from '../clock';
import type { ClaimedDelivery } from './claim';

/**
 * The order in which one dispatcher process sends the events of one change (docs/webhooks.md,
 * "Ordering"): deliveries to the same endpoint of events recorded by the same transaction go out
 * one after another, in `sequence` order, each once the previous attempt has its answer; all
 * else goes out at once. An attempt waits only as long as its own lease leaves room for a whole
 * request (`timeoutMs`), so a slow receiver can cost the order, never a lease.
 */
export function createChangeOrder(timeoutMs: number) {
  /** The last attempt started per endpoint and transaction, while it runs. */
  const tails = new Map<string, Promise<void>>();

  return {
    /** `claimed` with each one's start: after its predecessor in the same change, if any. */
    schedule(claimed: ClaimedDelivery[], send: (delivery: ClaimedDelivery) => Promise<void>): Promise<void>[] {
      const ordered = [...claimed].sort((a, b) => a.eventSequence - b.eventSequence);
      return ordered.map((delivery) => {
        const key = `${delivery.endpointId}:${delivery.eventTransaction}`;
        const previous = tails.get(key);
        const task = previous ? afterOrUntil(previous, delivery.leaseUntil.getTime() - timeoutMs - 1_000).then(() => send(delivery)) : send(delivery);
        tails.set(key, task);
        void task.finally(() => {
          if (tails.get(key) === task) tails.delete(key);
        });
        return task;
      });
    },
  };
}

/** Settles when `previous` settles, or at `deadline` (epoch ms) if that comes first. */
function afterOrUntil(previous: Promise<void>, deadline: number): Promise<void> {
  const wait = deadline - now().getTime();
  if (wait <= 0) return Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, wait);
  });
  return Promise.race([previous.catch(() => undefined), timeUp]).finally(() => clearTimeout(timer));
}
