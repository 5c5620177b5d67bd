import type { Collection, Filter } from 'mongodb';
import type { RecordKind } from '../domain/kinds';
import type { BaseDoc } from './storedRecord';
import type { SyncQueue } from './syncQueue';
import { setTimeout as sleep } from 'node:timers/promises';
import { unclaimed, WRITE_LOCK_MS } from './writeClaims';

/** How often a reassignment looks again at a record another write holds. */
const HELD_RECORD_POLL_MS = 20;
/** Tries to unlink a record from one holder that other writes keep changing. */
const MAX_UNLINK_ATTEMPTS = 5;

/**
 * The writes that remove a deleted record from the records of one kind referring to it (a
 * parent, a linked venue or term), each bracketed by the sync queue like a RecordStore write.
 */
export class DeletedReferences<D extends BaseDoc> {
  constructor(
    private readonly docs: Collection<D>,
    private readonly sync: SyncQueue,
    private readonly kind: RecordKind,
  ) {}

  /**
   * Sets the shared field `field` to `to` on every record where it is `from` (`from` was deleted).
   * A record another write holds is waited for (its claim's documents, and a translation it
   * adds from the record as it read it, would keep `from`), at most the claim's time limit.
   */
  async reassign(field: keyof D & string, from: number, to: number): Promise<number[]> {
    const holding = { [field]: from } as Filter<D>;
    const ids = (await this.docs.distinct('id', holding)) as number[];
    for (const id of ids) {
      await this.sync.begin(this.kind, id);
      const giveUpAt = Date.now() + WRITE_LOCK_MS;
      const set = { $set: { [field]: to, modifiedAt: new Date() } } as never;
      try {
        for (;;) {
          const unlessHeld = Date.now() < giveUpAt ? unclaimed() : {};
          await this.docs.updateMany({ id, ...holding, ...unlessHeld } as Filter<D>, set);
          if ((await this.docs.countDocuments({ id, ...holding } as Filter<D>)) === 0) break;
          await sleep(HELD_RECORD_POLL_MS);
        }
      } finally {
        await this.sync.commit(this.kind, id);
      }
    }
    return ids;
  }

  /**
   * Removes `linkedId` from the array field `field` of every record that holds it (a linked
   * record was deleted). Read-modify-write, since not every MongoDB-protocol server has `$pull`:
   * each write applies only to the array it read, and a record changed meanwhile is read again.
   * A record another write holds (WriteClaims) is left to that write: changing it would void the
   * claim's release, and the sync worker drops links to deleted records when it indexes it next.
   */
  async unlinkEverywhere(field: keyof D & string, linkedId: number): Promise<number[]> {
    const holding = { [field]: linkedId } as Filter<D>;
    const holders = (await this.docs.find(holding).toArray()) as D[];
    const ids = [...new Set(holders.map((doc) => doc.id))];
    for (const id of ids) {
      await this.sync.begin(this.kind, id);
      let current: D | null = holders.find((doc) => doc.id === id) ?? null;
      for (let attempt = 1; current && attempt <= MAX_UNLINK_ATTEMPTS; attempt++) {
        const before = (current[field] ?? []) as number[];
        const written = await this.docs.updateMany(
          { id, [field]: before, ...unclaimed() } as Filter<D>,
          { $set: { [field]: before.filter((value) => value !== linkedId), modifiedAt: new Date() } } as never,
        );
        if (written.matchedCount > 0) break;
        current = (await this.docs.findOne({ id, ...holding, ...unclaimed() } as Filter<D>)) as D | null;
      }
      await this.sync.commit(this.kind, id);
    }
    return ids;
  }
}
