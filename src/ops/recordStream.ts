import { LANGUAGES } from '../../config';
import type { BaseDoc, RecordStore, StoredRecord } from '../storage/recordStore';
import { isBeingWritten, type ClaimedEntry, type SyncQueue } from '../storage/syncQueue';

/**
 * IDs of every record in `store`, ascending, `size` at a time, from one cursor: memory stays
 * bounded whatever the number of records (the documents of a record are adjacent in id order).
 */
export async function* recordIdBatches<D extends BaseDoc>(
  store: RecordStore<D>,
  size: number,
  signal?: AbortSignal,
): AsyncGenerator<number[]> {
  const cursor = store.docs.find({}, { projection: { id: 1 }, sort: { id: 1 }, batchSize: size * LANGUAGES.length });
  let batch: number[] = [];
  let last: number | undefined;
  try {
    for await (const doc of cursor) {
      if (doc.id === last) continue;
      last = doc.id;
      batch.push(doc.id);
      if (batch.length >= size) {
        signal?.throwIfAborted();
        yield batch;
        batch = [];
      }
    }
    signal?.throwIfAborted();
    if (batch.length > 0) yield batch;
  } finally {
    await cursor.close();
  }
}

/** Number of records (not language documents) in `store`. */
export async function countRecords<D extends BaseDoc>(store: RecordStore<D>): Promise<number> {
  const [row] = await store.docs.aggregate<{ n: number }>([{ $group: { _id: '$id' } }, { $count: 'n' }]).toArray();
  return row?.n ?? 0;
}

/**
 * `[first, last]` ID ranges of about `size` records each, covering every ID from 1 up, without
 * gaps: cut at the IDs `store` holds, so a kind with few records among the many of another kind
 * (posts and terms share counters) is a few ranges, not one per `size` IDs of the counter. The
 * last range is open-ended: records created meanwhile above it are read too.
 */
export function idRanges<D extends BaseDoc>(
  store: RecordStore<D>,
  size: number,
  signal?: AbortSignal,
): AsyncGenerator<[number, number]> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`the batch size must be a positive integer: ${size}`);
  return contiguousRanges(recordIdBatches(store, size, signal), signal);
}

/** Ranges from ascending ID batches: each ends at its batch's last ID, the last one open-ended. */
export async function* contiguousRanges(
  batches: AsyncIterable<number[]>,
  signal?: AbortSignal,
): AsyncGenerator<[number, number]> {
  let first = 1;
  let end: number | undefined;
  for await (const ids of batches) {
    signal?.throwIfAborted();
    if (end !== undefined) {
      yield [first, end];
      first = end + 1;
    }
    end = ids.at(-1);
  }
  signal?.throwIfAborted();
  yield [first, Number.MAX_SAFE_INTEGER];
}

export interface VersionedRecords<D extends BaseDoc> {
  /** One per record, ascending by ID, at its current sync version. */
  entries: ClaimedEntry[];
  records: Map<number, StoredRecord<D>>;
}

/**
 * The records with IDs from `first` to `last` and their current sync versions, read BEFORE their
 * content (the worker's invariant: the content indexed is never older than its version). Records
 * without a sync entry get one (pending, so the worker indexes them too) and are read again.
 * Records a writer is still changing are left out: the worker mirrors them once committed (a bulk
 * load that does not queue its records fails the count check instead of leaving half a record).
 */
export async function versionedRange<D extends BaseDoc>(
  sync: SyncQueue,
  store: RecordStore<D>,
  first: number,
  last: number,
): Promise<VersionedRecords<D>> {
  const { kind } = store;
  const versions = await sync.entriesInRange(kind, first, last);
  const records = await store.getRange(first, last);
  const unknown = [...records.keys()].filter((id) => !versions.has(id));
  if (unknown.length > 0) {
    await sync.markDirty(kind, unknown);
    for (const [id, entry] of await sync.entriesOf(kind, unknown)) versions.set(id, entry);
    const reread = await store.getMany(unknown);
    for (const id of unknown) {
      const record = reread.get(id);
      if (record) records.set(id, record);
      else records.delete(id);
    }
  }
  const now = new Date();
  const entries = [...records.keys()]
    .sort((a, b) => a - b)
    .flatMap((id): ClaimedEntry[] => {
      const entry = versions.get(id);
      if (entry && !isBeingWritten(entry, now)) return [{ key: entry._id, kind, id, version: entry.version }];
      records.delete(id);
      return [];
    });
  return { entries, records };
}
