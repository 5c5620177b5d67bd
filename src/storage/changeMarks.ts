import type { Collection, Db } from 'mongodb';
import type { RecordKind } from '../domain/kinds';
import { ExpiringCache } from '../lib/expiringCache';
import { isDuplicateKey } from './mongo';

/**
 * How long a process reuses the marks it read, unless it changes one itself meanwhile: as long as
 * single reads trust "nothing waits for the worker" for their embedded term counts (syncQueue.ts).
 */
export const MARKS_MEMO_MS = 250;

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
 * from its own record and these counters in two finds, instead of loading and presenting all it
 * embeds. Shared by every process: this process's own writes show at once (they drop its memo);
 * another process's change of an embedded record within MARKS_MEMO_MS (the record's own changes
 * always show at once: the read compares its documents).
 */
export class ChangeMarks {
  private readonly marks: Collection<ChangeMark>;
  private readonly memo = new ExpiringCache(MARKS_MEMO_MS, 16);

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
    this.memo.clear();
  }

  /** The marks of `kinds` (a kind never changed has none), read at most MARKS_MEMO_MS ago. */
  async read(kinds: readonly RecordKind[]): Promise<Map<RecordKind, ChangeMark>> {
    if (kinds.length === 0) return new Map();
    return this.memo.shared(kinds.join(','), async () => {
      const found = await this.marks.find({ _id: { $in: [...kinds] } }).toArray();
      return new Map(found.map((mark) => [mark._id, mark]));
    });
  }
}
