import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { RecordKind } from '../domain/kinds';
import type { Audience } from '../domain/policy';
import { nextIds } from './counters';
import { ensureIndexes, isDuplicateKey } from './mongo';

/**
 * One entry per record that changed: the sequence number of its latest change and when that was
 * numbered. A record changed again moves to the end (a higher sequence), so the log stays one
 * entry per record, ordered by when each last changed. What the change was (an update, a
 * deletion, a record now hidden from someone) is read from the records when the feed is served.
 */
export interface ChangeEntry {
  _id: string;
  kind: RecordKind;
  id: number;
  seq: number;
  /** Taken before the sequence number: the feed hands out only entries settled past this. */
  at: Date;
  /**
   * The record's sync version once its latest change was written (SyncQueue): an index copy at
   * this version holds that state. Absent on entries logged before versions were.
   */
  version?: number;
  /**
   * Who lists showed the record to, in any state written since the entry was made (and in the
   * state before the first): the feed tells only them that it is gone. Grown by every write that
   * may change it (create, update, delete); absent on entries logged before audiences were, which
   * the log reads as shown to everyone.
   */
  audience?: Audience[];
}

/**
 * A change to log: the record, at its sync version once the change was written, with the audience
 * of its states before and after the change (none for a change that cannot move it: a link
 * unlinked, a count that changed).
 */
export interface LoggedChange {
  kind: RecordKind;
  id: number;
  version: number;
  audience?: Audience[];
}

/** The update of a change's audience: added to its entry's, or an empty one for a new entry. */
const audienceUpdate = (audience: Audience[] | undefined) =>
  audience ? { $addToSet: { audience: { $each: audience } } } : { $setOnInsert: { audience: [] } };

/** Beside them, the change counter (`_id: 'change'`, see counters.ts): apart from the record IDs' counters. */
interface PruneMark {
  _id: 'pruned';
  /** Every change numbered up to this was pruned (a position at or below it may have lost some). */
  seq: number;
}

/** Entries logged before audiences were have been given one (`ensureIndexes`), at `at`. */
interface AudiencesMark {
  _id: 'audiences';
  at: Date;
}

/**
 * The change log behind `GET /changes` (EXTENSIONS 17), written by the sync queue with the outbox
 * entry of every write path (create, update, trash, restore, delete, reassignments, unlinks,
 * records whose presentation depends on a changed one), and pruned by the sync worker.
 */
export class ChangeLog {
  readonly entries: Collection<ChangeEntry>;
  private readonly marks: Collection<PruneMark>;
  private readonly audiencesMark: Collection<AudiencesMark>;

  constructor(private readonly db: Db) {
    this.entries = db.collection<ChangeEntry>('change_log');
    this.marks = db.collection<PruneMark>('change_log_marks');
    this.audiencesMark = db.collection<AudiencesMark>(this.marks.collectionName);
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.entries, [
      { key: { seq: 1 }, options: { name: 'seq' } },
      { key: { at: 1 }, options: { name: 'at' } },
    ]);
    // Entries logged before audiences were may have been shown to anyone: said so before a write
    // adds an audience to one (absent is read the same way meanwhile). Once: it scans the log.
    if (await this.audiencesMark.findOne({ _id: 'audiences' })) return;
    await this.entries.updateMany({ audience: { $exists: false } }, { $set: { audience: ['everyone'] } });
    await this.audiencesMark.updateOne({ _id: 'audiences' }, { $set: { at: new Date() } }, { upsert: true });
  }

  /** Numbers a change of each record (one block of sequence numbers for all) and moves its entry there. */
  async record(changes: readonly LoggedChange[]): Promise<void> {
    if (changes.length === 0) return;
    const at = new Date();
    const first = await nextIds(this.db, 'change', changes.length, this.marks.collectionName);
    const writes: AnyBulkWriteOperation<ChangeEntry>[] = changes.map(({ kind, id, version, audience }, i) => ({
      updateOne: {
        // An entry already past this number or this version stays: a later change of the record
        // numbered first, or a change numbered first whose version is later (its state includes
        // this one's). Entries logged without a version move.
        filter: { _id: `${kind}:${id}`, seq: { $lt: first + i }, version: { $not: { $gt: version } } },
        update: { $set: { kind, id, seq: first + i, at, version }, ...audienceUpdate(audience) },
        upsert: true,
      },
    }));
    try {
      await this.entries.bulkWrite(writes, { ordered: false });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // Some server stop at the first duplicate: each write again, alone, the duplicates ignored.
      // A change whose entry stays keeps its audience all the same: the entry's states include its.
      for (const [i, write] of writes.entries()) {
        const stays = await this.entries.bulkWrite([write]).then(() => false, ignoreDuplicate);
        const { kind, id, audience } = changes[i]!;
        if (stays && audience) await this.entries.updateOne({ _id: `${kind}:${id}` }, audienceUpdate(audience));
      }
    }
  }

  /**
   * `record` for records with new IDs (bulk loads): inserted, which costs jongodb far less than as
   * many upserts; should one have an entry already, all are upserted instead.
   */
  async recordNew(changes: readonly LoggedChange[]): Promise<void> {
    if (changes.length === 0) return;
    const at = new Date();
    const first = await nextIds(this.db, 'change', changes.length, this.marks.collectionName);
    try {
      await this.entries.insertMany(
        changes.map(({ kind, id, version, audience }, i) => ({
          _id: `${kind}:${id}`,
          kind,
          id,
          seq: first + i,
          at,
          version,
          audience: audience ?? [],
        })),
        { ordered: false },
      );
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await this.record(changes);
    }
  }

  /**
   * Entries after `seq`, oldest first, at most `limit`, of `kinds` (all when absent), stopping
   * before the first not settled by `settledAt`: an entry numbered later than one still being
   * written is never handed out before it.
   */
  async after(seq: number, kinds: RecordKind[] | undefined, limit: number, settledAt: Date): Promise<ChangeEntry[]> {
    const found = await this.entries
      .find({ seq: { $gt: seq }, ...(kinds ? { kind: { $in: kinds } } : {}) })
      .sort({ seq: 1 })
      .limit(limit)
      .toArray();
    const unsettled = found.findIndex((entry) => entry.at.getTime() > settledAt.getTime());
    return unsettled < 0 ? found : found.slice(0, unsettled);
  }

  /** The position just before every change numbered at or after `at` (what a snapshot taken then may lack). */
  async positionBefore(at: Date): Promise<number> {
    const [newest] = await this.entries
      .find({ at: { $lt: at } })
      .sort({ seq: -1 })
      .limit(1)
      .toArray();
    return newest?.seq ?? (await this.prunedThrough());
  }

  /** The sequence number every pruned change is at or below (0: none pruned). */
  async prunedThrough(): Promise<number> {
    return (await this.marks.findOne({ _id: 'pruned' }))?.seq ?? 0;
  }

  /** Drops entries numbered before `before`; the mark moves first, so no reader misses a gap. */
  async prune(before: Date): Promise<number> {
    const [newest] = await this.entries
      .find({ at: { $lt: before } })
      .sort({ seq: -1 })
      .limit(1)
      .toArray();
    if (!newest) return 0;
    await this.raisePruneMark(newest.seq);
    return (await this.entries.deleteMany({ seq: { $lte: newest.seq }, at: { $lt: before } })).deletedCount;
  }

  /**
   * Moves the prune mark up to `seq`, never down: workers prune side by side, and one that read
   * the log before another pruned further must not lower the mark below what that one deleted.
   * A conditional update, not `$max`, which jongodb does not know.
   */
  async raisePruneMark(seq: number): Promise<void> {
    const raise = () => this.marks.updateOne({ _id: 'pruned', seq: { $lt: seq } }, { $set: { seq } });
    if ((await raise()).matchedCount > 0) return;
    // No mark below `seq`: none yet, or one at or above it. Inserted by another worker meanwhile: raised.
    await this.marks.insertOne({ _id: 'pruned', seq }).catch(async (err: unknown) => {
      ignoreDuplicate(err);
      await raise();
    });
  }
}

/** True for a duplicate key (the write did not take place), else the error again. */
function ignoreDuplicate(err: unknown): true {
  if (!isDuplicateKey(err)) throw err;
  return true;
}
