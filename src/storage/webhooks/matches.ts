import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import { chunks } from '../../lib/chunks';

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
}

const matchId = (subscription: number, event: number) => `${subscription}:${event}`;
/** Match changes written per request (each stays well within the server's timeout). */
const WRITE_CHUNK = 200;

/** The match set of every subscription: what `match.added` / `match.removed` are measured against. */
export class MatchStore {
  readonly docs: Collection<MatchDoc>;

  constructor(db: Db) {
    this.docs = db.collection<MatchDoc>('webhook_matches');
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([this.docs.createIndex({ event: 1 }), this.docs.createIndex({ subscription: 1 })]);
  }

  /** The stored matches of these events for these subscriptions, by `subscription:event`. */
  async of(subscriptions: number[], events: number[]): Promise<Map<string, MatchDoc>> {
    const docs = await this.docs.find({ event: { $in: events }, subscription: { $in: subscriptions } }).toArray();
    return new Map(docs.map((doc) => [doc._id, doc]));
  }

  static key = matchId;

  async apply(changes: MatchChange[]): Promise<void> {
    if (changes.length === 0) return;
    const operations: AnyBulkWriteOperation<MatchDoc>[] = changes.map(({ subscription, event, hash }) => {
      const _id = matchId(subscription, event);
      return hash === null
        ? { deleteOne: { filter: { _id } } }
        : { replaceOne: { filter: { _id }, replacement: { _id, subscription, event, hash }, upsert: true } };
    });
    for (const slice of chunks(operations, WRITE_CHUNK)) await this.docs.bulkWrite(slice, { ordered: false });
  }

  async deleteSubscription(subscription: number): Promise<void> {
    await this.docs.deleteMany({ subscription });
  }
}
