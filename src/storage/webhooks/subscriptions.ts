import type { Collection, Db } from 'mongodb';
import type { Language } from '../../../config';
import type { SealedSecret } from '../../lib/secretBox';
import { nextId } from '../counters';

export type SubscriptionStatus = 'active' | 'disabled';

/** A saved search whose changes are POSTed to `url` (EXTENSIONS part 18). */
export interface SubscriptionDoc {
  _id: number;
  url: string;
  /** `GET /events` parameters as validated, paging and ordering left out. */
  filters: Record<string, unknown>;
  /** The language the filters are evaluated and records presented in. */
  language: Language;
  /** The signing secret, sealed under WEBHOOK_SECRET_KEY (src/lib/secretBox.ts). */
  secret: SealedSecret;
  status: SubscriptionStatus;
  /** Why it was disabled (by its own deliveries failing, or by a PATCH); null while active. */
  disabledReason: string | null;
  disabledAt: Date | null;
  /** When it was last enabled again (PATCH status=active when disabled): its messages' retry windows start there at the earliest. */
  enabledAt?: Date | null;
  /** Since when its deliveries have failed without a success in between; null when the last one succeeded. */
  failingSince: Date | null;
  createdBy: string | null;
  created: Date;
  modified: Date;
}

export type SubscriptionTarget = Pick<SubscriptionDoc, '_id' | 'url' | 'status'>;
export type NewSubscription = Pick<SubscriptionDoc, 'url' | 'filters' | 'language' | 'secret' | 'createdBy'>;
export type SubscriptionChange = Partial<Pick<SubscriptionDoc, 'url' | 'filters' | 'secret' | 'status'>>;

export class SubscriptionStore {
  readonly docs: Collection<SubscriptionDoc>;

  constructor(private readonly db: Db) {
    this.docs = db.collection<SubscriptionDoc>('webhook_subscriptions');
  }

  async ensureIndexes(): Promise<void> {
    await this.docs.createIndex({ status: 1 });
  }

  async create(fields: NewSubscription): Promise<SubscriptionDoc> {
    const now = new Date();
    const doc: SubscriptionDoc = {
      _id: await nextId(this.db, 'subscription'),
      ...fields,
      status: 'active',
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
      created: now,
      modified: now,
    };
    await this.docs.insertOne(doc);
    return doc;
  }

  get(id: number): Promise<SubscriptionDoc | null> {
    return this.docs.findOne({ _id: id });
  }

  /** Oldest first: `limit` after `skip`, or after the subscription `after` (a walk). */
  async page(skip: number, limit: number, after?: number): Promise<{ items: SubscriptionDoc[]; total: number }> {
    const [items, total] = await Promise.all([
      this.docs
        .find(after === undefined ? {} : { _id: { $gt: after } })
        .sort({ _id: 1 })
        .skip(skip)
        .limit(limit)
        .toArray(),
      this.docs.countDocuments({}),
    ]);
    return { items, total };
  }

  active(): Promise<SubscriptionDoc[]> {
    return this.docs.find({ status: 'active' }).toArray();
  }

  /** Where each subscription delivers and whether it does: what a dispatcher plans a round with. */
  targets(): Promise<SubscriptionTarget[]> {
    return this.docs.find({}, { projection: { _id: 1, url: 1, status: 1 } }).toArray();
  }

  /** These subscriptions, read now (one round trip). */
  async byIds(ids: number[]): Promise<Map<number, SubscriptionDoc>> {
    const docs = ids.length ? await this.docs.find({ _id: { $in: ids } }).toArray() : [];
    return new Map(docs.map((doc) => [doc._id, doc]));
  }

  /** Applies a change; enabling clears the failure history. Null when there is no such subscription. */
  async update(id: number, change: SubscriptionChange): Promise<SubscriptionDoc | null> {
    const set: Partial<SubscriptionDoc> = { ...change, modified: new Date() };
    if (change.status === 'active') {
      Object.assign(set, { disabledReason: null, disabledAt: null, failingSince: null });
      // Enabled again: not moved by an `active` sent to an active subscription (its failures would never end).
      await this.docs.updateOne({ _id: id, status: 'disabled' }, { $set: { enabledAt: set.modified } });
    }
    if (change.status === 'disabled')
      Object.assign(set, { disabledReason: 'disabled by request', disabledAt: new Date() });
    return this.docs.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' });
  }

  async delete(id: number): Promise<boolean> {
    return (await this.docs.deleteOne({ _id: id })).deletedCount === 1;
  }

  async deliverySucceeded(id: number): Promise<void> {
    await this.docs.updateOne({ _id: id, failingSince: { $ne: null } }, { $set: { failingSince: null } });
  }

  async deliveryFailed(id: number, at: Date): Promise<void> {
    await this.docs.updateOne({ _id: id, failingSince: null }, { $set: { failingSince: at } });
  }

  /** Disables an active subscription; false when it was not active. */
  async disable(id: number, reason: string): Promise<boolean> {
    const now = new Date();
    const result = await this.docs.updateOne(
      { _id: id, status: 'active' },
      { $set: { status: 'disabled', disabledReason: reason, disabledAt: now, modified: now } },
    );
    return result.modifiedCount === 1;
  }
}
