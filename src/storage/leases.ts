import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from './mongo';

/** A lease in the `locks` collection: held by `holder` until `until`; absent when free. */
export interface LeaseDoc {
  _id: string;
  holder: string;
  /** When the holder took it. */
  since: Date;
  until: Date;
}

export function leaseCollection(db: Db): Collection<LeaseDoc> {
  return db.collection<LeaseDoc>('locks');
}

/**
 * Takes lease `id` for `holder` for `ms` if it is free or expired; whether it did. An expired
 * lease is deleted first; taking one is inserting it, which the unique `_id` grants to one caller
 * only: a duplicate means it is held. (An update matching a free lease is not atomic on jongodb:
 * two callers could each see it free and both take it.) Like `writeLockedUntil`, leases assume
 * the processes' clocks agree to well within them.
 */
export async function takeLease(locks: Collection<LeaseDoc>, id: string, holder: string, ms: number): Promise<boolean> {
  const now = new Date();
  await locks.deleteOne({ _id: id, until: { $lte: now } });
  try {
    await locks.insertOne({ _id: id, holder, since: now, until: new Date(now.getTime() + ms) });
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/** Frees the leases of `ids` that `holder` still holds. */
export async function releaseLeases(locks: Collection<LeaseDoc>, ids: string[], holder: string): Promise<void> {
  await locks.deleteMany({ _id: { $in: ids }, holder });
}
