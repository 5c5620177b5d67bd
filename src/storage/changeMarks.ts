import type { Collection, Db } from 'mongodb';
import type { RecordKind } from '../domain/kinds';
import { FreshReads } from '../lib/freshReads';
import { isDuplicateKey } from './mongo';

/** How many changes of a kind there have been, and when the last one was (one document per kind). */
export interface ChangeMark {
  _id: RecordKind;
  n: number;
  at: Date;
}

/**
 * A counter per kind bumped once a change of any record of the kind is written (or marked, when
 * what records of the kind show depends on another that changed: a term's count). A read that
 * embeds records of other kinds (an event's venue, organizers and terms) answers a revalidation
 * from its own record and these counters, instead of loading and presenting all it embeds, and
 * keeps what it embeds while they stay the same. Shared by every process and read from the
 * database on every read, so any process's writes show at once (CONTRACT part 8).
 */
export class ChangeMarks {
  private readonly marks: Collection<ChangeMark>;
  /** All marks (one document per kind), read once for every read that asked while the last one ran. */
  private readonly reads = new FreshReads(async () => {
    const found = await this.marks.find({}).toArray();
    return new Map(found.map((mark) => [mark._id, mark]));
  });

  constructor(db: Db) {
    this.marks = db.collection<ChangeMark>('change_marks');
  }

  async bump(kinds: Iterable<RecordKind>): Promise<void> {
    const unique = [...new Set(kinds)];
    if (unique.length === 0) return;
    const write = () =>
      this.marks.bulkWrite(
        unique.map((kind) => ({
          updateOne: { filter: { _id: kind }, update: { $inc: { n: 1 }, $set: { at: new Date() } }, upsert: true },
        })),
        { ordered: false },
      );
    // Two first bumps of a kind may both insert: the one refused finds the document the other made.
    await write().catch((err: unknown) => {
      if (!isDuplicateKey(err)) throw err;
      return write();
    });
  }

  /**
   * The marks of `kinds` (a kind never changed has none) as the database holds them now: every
   * write answered before, by any process, shows in them (what records kept per mark are checked
   * against: src/services/views/embeddedByMark.ts).
   */
  async current(kinds: readonly RecordKind[]): Promise<Map<RecordKind, ChangeMark>> {
    if (kinds.length === 0) return new Map();
    const all = await this.reads.fresh();
    return new Map(kinds.flatMap((kind) => (all.has(kind) ? [[kind, all.get(kind)!]] : [])));
  }
}
