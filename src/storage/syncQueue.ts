import { EventEmitter } from 'node:events';
import type { Collection, Db } from 'mongodb';
import { ExpiringCache } from '../lib/expiringCache';
import { ChangeLog, type LoggedChange } from './changeLog';
import { watchDirtyEntries } from './dirtyWatch';
import { idFilter, keep } from './idFilter';
import { ensureIndexes, isDuplicateKey } from './mongo';
import { ChangeMarks } from './changeMarks';
import { idsByKind, type RecordKind } from '../domain/kinds';
import type { Audience } from '../domain/policy';

/**
 * One entry per record: the durable record of pending index work (an outbox that coalesces).
 * `version` only grows and is used as the Elasticsearch external version, so an older read can
 * never overwrite a newer one; `indexedVersion` is the last version known to be searchable.
 */
export interface SyncEntry {
  _id: string;
  kind: RecordKind;
  id: number;
  version: number;
  indexedVersion: number;
  pending: boolean;
  dirtyAt: Date;
  /** A worker's lease: it is indexing the record until then (others leave the entry alone). */
  leaseUntil: Date;
  owner: string | null;
  /** A writer is changing the record's documents until then (absent on entries never written so). */
  writingUntil?: Date;
  /** After a failed indexing, not before then (absent until one failed); a new write clears it. */
  retryAfter?: Date;
  /** When a worker last completed or gave back the record (absent until then). */
  attemptedAt?: Date;
}

export interface ClaimedEntry {
  key: string;
  kind: RecordKind;
  id: number;
  version: number;
  /** When the entry last became dirty (for the write-to-indexed lag). */
  dirtyAt?: Date;
  /** When a worker last completed or gave back the record: its documents may be sent until then. */
  attemptedAt?: Date;
}

/** Where a record's index documents stand (SyncQueue.indexStates). */
export type IndexState = Pick<SyncEntry, 'version' | 'pending' | 'attemptedAt'>;

const EPOCH = new Date(0);
/** The fields of a new entry that writes do not set: never indexed, no worker's lease. */
export const NEW_ENTRY = { indexedVersion: 0, leaseUntil: EPOCH, owner: null };
/** How long an in-flight write holds its record back from the worker (a crashed writer's grace). */
const WRITE_GRACE_MS = 10_000;

export const syncKey = (kind: RecordKind, id: number): string => `${kind}:${id}`;

/** Whether a writer is changing the record now: its documents may be half written. */
export function isBeingWritten(entry: Pick<SyncEntry, 'writingUntil'>, now: Date = new Date()): boolean {
  return entry.writingUntil !== undefined && entry.writingUntil.getTime() > now.getTime();
}

/** How long `hasPending` trusts its last answer, unless this process writes or indexes meanwhile. */
export const PENDING_MEMO_MS = 250;

/**
 * Writers call `begin` before changing a record's documents and `commit` after: `begin` makes the
 * record pending (so a crash mid-write is still indexed once the grace lapses), `commit` bumps the
 * version again so a worker that read mid-write re-reads the finished state.
 *
 * Writes never take an entry from the worker indexing it: they bump its version, and the worker's
 * `complete` then leaves it pending for the next batch. So, while a worker's lease lasts, no other
 * batch indexes the record, and each batch reads, as the record's previous index documents, those
 * of the batch before it, which tell what changed for the records that embed or count it.
 */
export class SyncQueue extends EventEmitter {
  readonly entries: Collection<SyncEntry>;
  /** The ordered record of changes `/changes` serves, written beside every committed entry. */
  readonly changes: ChangeLog;
  private readonly pendingMemo = new ExpiringCache(PENDING_MEMO_MS, 1);
  /** Bumped with every change committed or marked here: what HTTP revalidation compares (src/http/caching.ts). */
  readonly marks: ChangeMarks;

  constructor(db: Db) {
    super();
    this.entries = db.collection<SyncEntry>('sync_state');
    this.marks = new ChangeMarks(db);
    this.changes = new ChangeLog(db);
    // This process's writes and indexing change the answer of `hasPending`.
    const forget = () => this.pendingMemo.clear();
    this.on('dirty', forget).on('indexed', forget);
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.entries, [
      { key: { pending: 1, leaseUntil: 1, dirtyAt: 1 }, options: { name: 'pending_lease' } },
      { key: { kind: 1, id: 1 }, options: { name: 'kind_id' } },
    ]);
    await this.changes.ensureIndexes();
  }

  async begin(kind: RecordKind, id: number): Promise<void> {
    await this.touch(kind, id, new Date(Date.now() + WRITE_GRACE_MS));
  }

  /**
   * Returns the version that, once indexed, makes this write searchable. `audience`: who lists
   * showed the record to before or after the write, when it may have changed (LoggedChange).
   */
  async commit(kind: RecordKind, id: number, audience?: Audience[]): Promise<number> {
    const version = await this.touch(kind, id, EPOCH);
    await this.marks.bump([kind]);
    // After the documents are written: a feed reader that sees the entry reads the new state.
    await this.changes.record([{ kind, id, version, audience }]);
    this.emit('dirty');
    return version;
  }

  /** Marks records dirty whose index documents depend on another record that changed. */
  async markDirty(kind: RecordKind, ids: number[]): Promise<void> {
    await this.markAllDirty([[kind, ids]]);
  }

  /** markDirty for records of several kinds at once: one write for all of them. */
  async markAllDirty(groups: Iterable<readonly [RecordKind, number[]]>): Promise<void> {
    const records = new Map<string, { kind: RecordKind; id: number }>();
    for (const [kind, ids] of groups) for (const id of ids) records.set(syncKey(kind, id), { kind, id });
    if (records.size === 0) return;
    await this.marks.bump([...records.values()].map(({ kind }) => kind));
    const keys = [...records.keys()];
    // A record waiting to retry keeps waiting: its dependencies' failures must not undo its backoff.
    const dirty = { pending: true, dirtyAt: new Date() };
    // One write for the entries that exist (every write costs a collection pass on some servers);
    // upserts only for the few records that never had one.
    const updated = await this.entries.updateMany({ _id: { $in: keys } }, { $inc: { version: 1 }, $set: dirty });
    if (updated.matchedCount < keys.length) {
      const existing = new Set((await this.entries.find({ _id: { $in: keys } }).toArray()).map((entry) => entry._id));
      const missing = [...records].filter(([key]) => !existing.has(key));
      if (missing.length > 0) {
        await this.entries.bulkWrite(
          missing.map(([key, { kind, id }]) => ({
            updateOne: {
              filter: { _id: key },
              update: { $inc: { version: 1 }, $set: dirty, $setOnInsert: { kind, id, ...NEW_ENTRY } },
              upsert: true,
            },
          })),
          { ordered: false },
        );
      }
    }
    await this.changes.record(await this.versionsNow(records.values()));
    this.emit('dirty');
  }

  /** The records at the sync versions they have now: the changes to log once their versions moved. */
  private async versionsNow(records: Iterable<{ kind: RecordKind; id: number }>): Promise<LoggedChange[]> {
    const found = await Promise.all(
      [...idsByKind(records)].map(async ([kind, ids]) => {
        const entries = await this.entries
          .find({ kind, ...idFilter(ids) }, { projection: { _id: 0, id: 1, version: 1 } })
          .toArray();
        return keep(entries, ids).map(({ id, version }) => ({ kind, id, version }));
      }),
    );
    return found.flat();
  }

  private async touch(kind: RecordKind, id: number, writingUntil: Date): Promise<number> {
    const entry = await this.entries.findOneAndUpdate(
      { _id: syncKey(kind, id) },
      {
        $inc: { version: 1 },
        $set: { pending: true, dirtyAt: new Date(), writingUntil, retryAfter: EPOCH },
        $setOnInsert: { kind, id, ...NEW_ENTRY },
      },
      { upsert: true, returnDocument: 'after' },
    );
    return entry?.version ?? 0;
  }

  /** Leases up to `limit` pending entries for `owner`; several workers never get the same entry. */
  async claim(owner: string, limit: number, leaseMs: number): Promise<ClaimedEntry[]> {
    const now = new Date();
    // Pending, and neither leased to a worker, nor being written, nor waiting to retry (`$not`
    // matches the holds never set; on jongodb it is also three times faster than an `$or`).
    const free = {
      pending: true,
      leaseUntil: { $lte: now },
      writingUntil: { $not: { $gt: now } },
      retryAfter: { $not: { $gt: now } },
    };
    const candidates = await this.entries.find(free).sort({ dirtyAt: 1 }).limit(limit).toArray();
    if (candidates.length === 0) return [];
    const keys = candidates.map((candidate) => candidate._id);
    const leaseUntil = new Date(now.getTime() + leaseMs);
    // One write leases every candidate still free (each one atomically: one worker wins it), then
    // one read says which this call won and at which version (a writer may have bumped it).
    const leased = await this.entries.updateMany({ _id: { $in: keys }, ...free }, { $set: { leaseUntil, owner } });
    if (leased.modifiedCount === 0) return [];
    const won = new Map(
      (await this.entries.find({ _id: { $in: keys }, owner, leaseUntil }).toArray()).map((entry) => [entry._id, entry]),
    );
    return keys.flatMap((key) => {
      const entry = won.get(key);
      if (!entry) return [];
      const { kind, id, version, dirtyAt, attemptedAt } = entry;
      return [{ key, kind, id, version, dirtyAt, ...(attemptedAt && { attemptedAt }) }];
    });
  }

  /** Marks entries indexed at the claimed version; an entry written meanwhile stays pending. */
  async complete(owner: string, entries: ClaimedEntry[]): Promise<void> {
    const attemptedAt = new Date();
    // One write per claimed version (most entries of a batch share a few), not one per entry.
    const byVersion = new Map<number, string[]>();
    for (const entry of entries) byVersion.set(entry.version, [...(byVersion.get(entry.version) ?? []), entry.key]);
    await Promise.all(
      [...byVersion].map(async ([version, keys]) => {
        const done = await this.entries.updateMany(
          { _id: { $in: keys }, version },
          { $set: { pending: false, indexedVersion: version, leaseUntil: EPOCH, owner: null, attemptedAt } },
        );
        if (done.matchedCount < keys.length) {
          await this.entries.updateMany(
            { _id: { $in: keys }, version: { $ne: version }, owner },
            { $set: { leaseUntil: EPOCH, owner: null, indexedVersion: version, attemptedAt } },
          );
        }
      }),
    );
    this.emit('indexed');
  }

  /** Gives entries back after a failure, to be retried once `retryInMs` has passed (or once written again). */
  async release(owner: string, entries: ClaimedEntry[], retryInMs: number): Promise<void> {
    const retryAfter = new Date(Date.now() + retryInMs);
    await this.entries.updateMany(
      { _id: { $in: entries.map((e) => e.key) }, owner },
      { $set: { leaseUntil: EPOCH, owner: null, retryAfter, attemptedAt: new Date() } },
    );
  }

  /** See `watchDirtyEntries`: calls `onChange` when any process marks a record dirty. */
  watchDirty(onChange: () => void, onUnavailable: (err: Error) => void): () => Promise<void> {
    return watchDirtyEntries(this.entries, onChange, onUnavailable);
  }

  /**
   * Whether any change is not indexed yet (then figures the index derives may be behind). Reads by
   * ID ask it each time: the answer is kept PENDING_MEMO_MS, and forgotten at once when this
   * process writes or indexes (another process's write shows within that time).
   */
  hasPending(): Promise<boolean> {
    return this.pendingMemo.shared('pending', () => this.pendingNow());
  }

  /** Whether any change waits for the worker, read now (not shared with other reads). */
  async pendingNow(): Promise<boolean> {
    return (await this.entries.findOne({ pending: true })) !== null;
  }

  /** A record's sync version and the version its index documents have (0 and 0 without an entry). */
  async versionsOf(kind: RecordKind, id: number): Promise<{ version: number; indexedVersion: number }> {
    const entry = await this.entries.findOne({ _id: syncKey(kind, id) });
    return { version: entry?.version ?? 0, indexedVersion: entry?.indexedVersion ?? 0 };
  }

  /**
   * The index states of the records of `ids` now (records without an entry are absent): a
   * document indexed at a record's current `version` holds its latest state; a record not
   * `pending` has been indexed at it (or was loaded in bulk for a reindex), at `attemptedAt`.
   */
  async indexStates(kind: RecordKind, ids: number[]): Promise<Map<number, IndexState>> {
    if (ids.length === 0) return new Map();
    const found = await this.entries
      .find({ kind, ...idFilter(ids) }, { projection: { _id: 0, id: 1, version: 1, pending: 1, attemptedAt: 1 } })
      .toArray();
    return new Map(keep(found, ids).map(({ id, ...state }) => [id, state]));
  }

  /** The keys (`kind:id`) of the records of `kinds` that wait for the worker now. */
  async pendingKeys(kinds: RecordKind[]): Promise<Set<string>> {
    const found = await this.entries
      .find({ pending: true, kind: { $in: kinds } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(found.map((entry) => entry._id));
  }

  /** Whether a record of `kinds` marked dirty at or before `before` still waits for the worker. */
  async waitingSince(kinds: RecordKind[], before: Date): Promise<boolean> {
    const filter = { pending: true, kind: { $in: kinds }, dirtyAt: { $lte: before } };
    return (await this.entries.countDocuments(filter, { limit: 1 })) > 0;
  }

  // --- Bulk loads and ops scripts (src/tools): reindex, verify/repair, demo data -----------------

  /** The entries of `ids` (records without one are absent from the map). */
  async entriesOf(kind: RecordKind, ids: number[]): Promise<Map<number, SyncEntry>> {
    if (ids.length === 0) return new Map();
    const found = keep(await this.entries.find({ kind, ...idFilter(ids) }).toArray(), ids);
    return new Map(found.map((entry) => [entry.id, entry]));
  }

  /** The entries of the records of `kind` whose IDs are from `first` to `last`, both included. */
  async entriesInRange(kind: RecordKind, first: number, last: number): Promise<Map<number, SyncEntry>> {
    const found = await this.entries.find({ kind, id: { $gte: first, $lte: last } }).toArray();
    return new Map(found.map((entry) => [entry.id, entry]));
  }

  async pendingCount(kind: RecordKind): Promise<number> {
    return this.entries.countDocuments({ kind, pending: true });
  }

  /**
   * Bulk `begin` for records with new IDs: pending, held for the writer. Inserted (fast); should
   * an entry exist already (a repair queued that ID before it was allocated), upserted instead.
   */
  async beginNew(kind: RecordKind, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const now = new Date();
    const hold = { pending: true, dirtyAt: now, writingUntil: new Date(now.getTime() + WRITE_GRACE_MS) };
    try {
      await this.entries.insertMany(
        ids.map((id) => ({ _id: syncKey(kind, id), kind, id, version: 1, ...NEW_ENTRY, ...hold })),
        { ordered: false },
      );
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await this.entries.bulkWrite(
        ids.map((id) => ({
          updateOne: {
            filter: { _id: syncKey(kind, id) },
            update: { $inc: { version: 1 }, $set: hold, $setOnInsert: { kind, id, ...NEW_ENTRY } },
            upsert: true,
          },
        })),
        { ordered: false },
      );
    }
  }

  /**
   * Bulk `commit` of `beginNew`. `queue: false` leaves the entries committed but not pending: the
   * worker never indexes them and a reindex must (bulk loads that end with one).
   */
  async commitNew(
    kind: RecordKind,
    ids: number[],
    options: { queue: boolean; audiences: ReadonlyMap<number, Audience[]> },
  ): Promise<void> {
    if (ids.length === 0) return;
    await this.entries.updateMany(
      { _id: { $in: ids.map((id) => syncKey(kind, id)) } },
      { $inc: { version: 1 }, $set: { pending: options.queue, dirtyAt: new Date(), writingUntil: EPOCH } },
    );
    await this.marks.bump([kind]);
    const changes = await this.versionsNow(ids.map((id) => ({ kind, id })));
    await this.changes.recordNew(changes.map((change) => ({ ...change, audience: options.audiences.get(change.id) })));
    if (options.queue) this.emit('dirty');
  }

  /** When the change waiting longest for the worker was made (null: nothing waits). */
  async oldestPendingAt(): Promise<Date | null> {
    const oldest = await this.entries.find({ pending: true }).sort({ dirtyAt: 1 }).limit(1).next();
    return oldest?.dirtyAt ?? null;
  }

  /** Backlog figures for /readyz, logs and metrics. */
  async backlog(): Promise<{ pending: number; oldestPendingMs: number }> {
    const pending = await this.entries.countDocuments({ pending: true });
    const oldest = pending > 0 ? await this.entries.find({ pending: true }).sort({ dirtyAt: 1 }).limit(1).next() : null;
    return { pending, oldestPendingMs: oldest ? Math.max(0, Date.now() - oldest.dirtyAt.getTime()) : 0 };
  }
}
