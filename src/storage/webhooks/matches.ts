import type { Collection, Db } from 'mongodb';
import { chunks } from '../../lib/chunks';
import { ensureIndexes, insertNew } from '../mongo';

/** One event matching one subscription, as of the last change the worker evaluated. */
export interface MatchDoc {
  _id: string;
  subscription: number;
  event: number;
  /** Hash of the event's indexed record: an unchanged record is no `match.updated`. */
  hash: string;
}

export interface MatchChange {
  subscription: number;
  event: number;
  /** The new hash; null: it no longer matches. */
  hash: string | null;
  /** Whether a match was stored for it when the changes were worked out (`of`). */
  stored: boolean;
}

/** `subscription:event`: a match's ID, and the chain of messages a subscription gets about an event. */
export const subscriptionEventKey = (subscription: number, event: number) => `${subscription}:${event}`;
/** Match changes written per request (each stays well within the server's timeout). */
const WRITE_CHUNK = 1_000;

/** The match set of every subscription: what `match.added` / `match.removed` are measured against. */
export class MatchStore {
  readonly docs: Collection<MatchDoc>;

  constructor(db: Db) {
    this.docs = db.collection<MatchDoc>('webhook_matches');
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.docs, [
      { key: { event: 1 }, options: { name: 'event_1' } },
      { key: { subscription: 1 }, options: { name: 'subscription_1' } },
    ]);
  }

  /** The stored matches of these events for these subscriptions, by `subscription:event`. */
  async of(subscriptions: number[], events: number[]): Promise<Map<string, MatchDoc>> {
    const docs = await this.docs.find({ event: { $in: events }, subscription: { $in: subscriptions } }).toArray();
    return new Map(docs.map((doc) => [doc._id, doc]));
  }

  static key = subscriptionEventKey;

  /**
   * Applies match changes in a few requests whatever their number (on jongodb each write costs
   * what the collection holds): one delete, one insert, one update per changed record (the same
   * record has the same new hash for every subscription it still matches).
   */
  async apply(changes: MatchChange[]): Promise<void> {
    if (changes.length === 0) return;
    const removed: string[] = [];
    const added: MatchDoc[] = [];
    const rehashed = new Map<string, string[]>();
    for (const { subscription, event, hash, stored } of changes) {
      const _id = subscriptionEventKey(subscription, event);
      if (hash === null) removed.push(_id);
      else if (!stored) added.push({ _id, subscription, event, hash });
      else {
        let same = rehashed.get(hash);
        if (!same) rehashed.set(hash, (same = []));
        same.push(_id);
      }
    }
    for (const slice of chunks(removed, WRITE_CHUNK)) await this.docs.deleteMany({ _id: { $in: slice } });
    for (const slice of chunks(added, WRITE_CHUNK)) await insertNew(this.docs, slice);
    for (const [hash, same] of rehashed) await this.docs.updateMany({ _id: { $in: same } }, { $set: { hash } });
  }

  async deleteSubscription(subscription: number): Promise<void> {
    await this.docs.deleteMany({ subscription });
  }
}
