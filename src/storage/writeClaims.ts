import type { Collection, Filter } from 'mongodb';
import { changedMeanwhile } from '../domain/errors';
import type { RecordKind } from '../domain/kinds';
import type { BaseDoc, StoredRecord } from './storedRecord';

/** How long a write holds off other processes' writes of the record at most (a crashed writer). */
export const WRITE_LOCK_MS = 30_000;

/** A record claimed for one write. */
export interface WriteClaim {
  id: number;
  /** The version the write's checks read, and the one a release restores. */
  readAt: Date;
  claimedAt: Date;
  lockedUntil: Date;
  /** The version the finished write sets. */
  writtenAt: Date;
}

/**
 * Whether a write holds `record` now (claimed, not finished): what it shows may go back without a
 * change, so without a change mark's bump (a claim given up). Readers keep nothing of it.
 */
export function isHeldNow(record: StoredRecord<BaseDoc> | undefined, now = Date.now()): boolean {
  return Object.values(record?.docs ?? {}).some((doc) => {
    const until = (doc as BaseDoc & { writeLockedUntil?: Date }).writeLockedUntil;
    return until instanceof Date && until.getTime() > now;
  });
}

/** Matches the documents of records no write holds now. */
export const unclaimed = () => ({
  $or: [{ writeLockedUntil: { $exists: false } }, { writeLockedUntil: { $lte: new Date() } }],
});

/**
 * Makes a record's writes from different processes exclusive without transactions: a claim is
 * one `updateMany` that matches only while the record's `modifiedAt` is the one the write's
 * checks read and no other write holds it (`writeLockedUntil`); the write's own last update
 * clears `writeLockedUntil`.
 */
export class WriteClaims<D extends BaseDoc> {
  constructor(
    private readonly docs: Collection<D>,
    private readonly kind: RecordKind,
  ) {}

  /**
   * Claims `record`, or throws ConflictError (409) when another write changed it since it was
   * read, or holds it. The claim's own time differs from the time the finished write sets (one
   * later than the version read, the next one later): a write that read the record half-written,
   * at the claim's time, cannot claim it afterwards.
   */
  async claim(record: StoredRecord<D>): Promise<WriteClaim> {
    const readAt = new Date(Math.max(...Object.values(record.docs).map((doc) => doc.modifiedAt.getTime())));
    const claimedAt = new Date(Math.max(Date.now(), readAt.getTime() + 1));
    const lockedUntil = new Date(Date.now() + WRITE_LOCK_MS);
    const claimed = await this.docs.updateMany(
      { id: record.id, modifiedAt: readAt, ...unclaimed() } as Filter<D>,
      { $set: { modifiedAt: claimedAt, writeLockedUntil: lockedUntil } } as never,
    );
    if (claimed.matchedCount === 0) throw changedMeanwhile(this.kind, record.id);
    return { id: record.id, readAt, claimedAt, lockedUntil, writtenAt: new Date(claimedAt.getTime() + 1) };
  }

  /** Gives up a claim before anything was written: the record is as it was read, free for other writes. */
  async release(claim: WriteClaim): Promise<void> {
    await this.docs.updateMany(
      { id: claim.id, modifiedAt: claim.claimedAt, writeLockedUntil: claim.lockedUntil } as Filter<D>,
      { $set: { modifiedAt: claim.readAt }, $unset: { writeLockedUntil: '' } } as never,
    );
  }
}
