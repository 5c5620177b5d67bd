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

/** Attempts at a lease released by its holder while it was being asked for. */
const MAX_ATTEMPTS = 3;
/** How long the right to take over an expired lease is held: a caller that died with it is overtaken after. */
const TAKEOVER_MS = 10_000;

/** Inserts `doc`; false when its `_id` exists (the unique `_id` grants an insert to one caller only). */
async function inserted(locks: Collection<LeaseDoc>, doc: LeaseDoc): Promise<boolean> {
  try {
    await locks.insertOne(doc);
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/**
 * Takes lease `id` for `holder` for `ms` if it is free or expired; whether it did. Only inserts
 * decide who gets it: on jongodb an upsert matching a free lease, or a delete of an expired one,
 * could be applied for two callers at once, both then taking it (docs/testing.md). Taking a free
 * lease is inserting it. Taking over an expired one needs the lease on that holding (named after
 * the lease, its holder and when it was taken), taken the same way: the one caller that gets it
 * replaces the holding, if it is still the one it saw, then frees it. Like `writeLockedUntil`,
 * leases assume the processes' clocks agree to well within them.
 */
export async function takeLease(locks: Collection<LeaseDoc>, id: string, holder: string, ms: number): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const since = new Date();
    const until = new Date(since.getTime() + ms);
    if (await inserted(locks, { _id: id, holder, since, until })) return true;
    const current = await locks.findOne({ _id: id });
    if (!current) continue;
    if (current.until.getTime() > since.getTime()) return false;
    const takeover = `${id} taken over from ${current.holder} of ${current.since.toISOString()}`;
    if (!(await takeLease(locks, takeover, holder, TAKEOVER_MS))) return false;
    try {
      const replaced = await locks.updateOne(
        { _id: id, holder: current.holder, since: current.since },
        { $set: { holder, since, until } },
      );
      return replaced.matchedCount === 1;
    } finally {
      await releaseLeases(locks, [takeover], holder);
    }
  }
  return false;
}

/** Frees the leases of `ids` that `holder` still holds. */
export async function releaseLeases(locks: Collection<LeaseDoc>, ids: string[], holder: string): Promise<void> {
  await locks.deleteMany({ _id: { $in: ids }, holder });
}
