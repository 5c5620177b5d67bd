import { Batcher } from '../../lib/batcher';
import { ExpiringCache } from '../../lib/expiringCache';
import type { SubscriptionDoc, SubscriptionStore } from '../../storage/webhooks/subscriptions';

/** How old a subscription read may be when an attempt starts (a PATCH may land during any attempt anyway). */
export const SUBSCRIPTION_FRESH_MS = 100;
/** Subscriptions remembered at once (past it, the oldest read go first). */
const MAX_REMEMBERED = 10_000;

/**
 * The subscriptions attempts start with, read at most SUBSCRIPTION_FRESH_MS before, many a
 * query: a subscription disabled or deleted since its messages were claimed sends nothing more.
 * Attempts asking for one subscription while it is read share that read.
 */
export class CurrentSubscriptions {
  private readonly read = new ExpiringCache(SUBSCRIPTION_FRESH_MS, MAX_REMEMBERED);
  private readonly reads: Batcher<number, SubscriptionDoc | undefined>;

  constructor(store: SubscriptionStore) {
    this.reads = new Batcher(async (ids) => {
      const current = await store.byIds([...new Set(ids)]);
      return ids.map((id) => current.get(id));
    });
  }

  /** Subscription `id` as it is now (undefined: deleted). */
  get(id: number): Promise<SubscriptionDoc | undefined> {
    return this.read.shared(String(id), () => this.reads.run(id));
  }
}
