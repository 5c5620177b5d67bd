import { Batcher } from '../../lib/batcher';
import type { SubscriptionDoc, SubscriptionStore } from '../../storage/webhooks/subscriptions';

/** How old a subscription read may be when an attempt starts (a PATCH may land during any attempt anyway). */
export const SUBSCRIPTION_FRESH_MS = 100;

/**
 * The subscriptions attempts start with, read at most SUBSCRIPTION_FRESH_MS before, many a
 * query: a subscription disabled or deleted since its messages were claimed sends nothing more.
 */
export class CurrentSubscriptions {
  private readonly read = new Map<number, { doc: SubscriptionDoc | undefined; at: number }>();
  private readonly reads: Batcher<number, SubscriptionDoc | undefined>;

  constructor(store: SubscriptionStore) {
    this.reads = new Batcher(async (ids) => {
      const at = Date.now();
      const current = await store.byIds([...new Set(ids)]);
      for (const id of ids) this.read.set(id, { doc: current.get(id), at });
      return ids.map((id) => current.get(id));
    });
  }

  /** Subscription `id` as it is now (undefined: deleted). */
  get(id: number): Promise<SubscriptionDoc | undefined> {
    const known = this.read.get(id);
    if (known && Date.now() - known.at <= SUBSCRIPTION_FRESH_MS) return Promise.resolve(known.doc);
    return this.reads.run(id);
  }
}
