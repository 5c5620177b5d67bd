import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from './mongo';

/** A lease in the `locks` collection: held by `holder` until `until`, free once that has passed. */
export interface LeaseDoc {
  _id: string;
  holder: string | null;
  /** When the holder took it. */
  since: Date;
  until: Date;
}

export function leaseCollection(db: Db): Collection<LeaseDoc> {
  return db.collection<LeaseDoc>('locks');
}

/**
 * Takes lease `id` for `holder` for `ms` if it is free or expired; whether it did. One
 * `findOneAndUpdate` matching a free lease, else inserting one: a duplicate `_id` means it is
 * held. Like `writeLockedUntil`, leases assume the processes' clocks agree to well within them.
 */
export async function takeLease(locks: Collection<LeaseDoc>, id: string, holder: string, ms: number): Promise<boolean> {
  const now = new Date();
  try {
    const doc = await locks.findOneAndUpdate(
      { _id: id, until: { $lte: now } },
      { $set: { holder, since: now, until: new Date(now.getTime() + ms) } },
      { upsert: true, returnDocument: 'after' },
    );
    if (doc?.holder === holder) return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
  // jongodb can return another caller's post-image under concurrent calls: the stored document
  // says who holds the lease.
  return (await locks.findOne({ _id: id }))?.holder === holder;
}

/** Frees the leases of `ids` that `holder` still holds. */
export async function releaseLeases(locks: Collection<LeaseDoc>, ids: string[], holder: string): Promise<void> {
  await locks.updateMany({ _id: { $in: ids }, holder }, { $set: { holder: null, until: new Date(0) } });
}
