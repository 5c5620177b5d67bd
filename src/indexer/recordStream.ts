import type { RecordStore } from '../storage/recordStore';
import type { BaseDoc, StoredRecord } from '../storage/storedRecord';
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
  let batch: number[] = [];
  for await (const id of store.ids(size)) {
    batch.push(id);
    if (batch.length >= size) {
      signal?.throwIfAborted();
      yield batch;
      batch = [];
    }
  }
  signal?.throwIfAborted();
  if (batch.length > 0) yield batch;
}

/**
 * `[first, last]` ID ranges of `size` IDs each, covering every ID from 1 up to the highest the
 * store holds without gaps, so a range never holds more than `size` records; the last one is
 * open-ended: records created meanwhile above it are read too. Cut by IDs rather than by the
 * records found, because walking the IDs costs a read of every document: on jongodb as much as
 * reading the records themselves. A kind whose IDs are sparse (kinds share ID counters) pays a
 * few reads with little in them, each of its own small collection. The first range may be
 * smaller (`firstSize`): what is read from it is ready sooner.
 */
export function idRanges(
  store: Pick<RecordStore<BaseDoc>, 'highestId'>,
  size: number,
  signal?: AbortSignal,
  firstSize = size,
): AsyncGenerator<[number, number]> {
  for (const n of [size, firstSize])
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`the batch size must be a positive integer: ${n}`);
  return rangesUpTo(store, size, firstSize, signal);
}

async function* rangesUpTo(
  store: Pick<RecordStore<BaseDoc>, 'highestId'>,
  size: number,
  firstSize: number,
  signal?: AbortSignal,
): AsyncGenerator<[number, number]> {
  const highest = await store.highestId();
  let first = 1;
  if (firstSize < size && firstSize < highest) {
    signal?.throwIfAborted();
    yield [1, firstSize];
    first = firstSize + 1;
  }
  for (; first + size - 1 < highest; first += size) {
    signal?.throwIfAborted();
    yield [first, first + size - 1];
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
