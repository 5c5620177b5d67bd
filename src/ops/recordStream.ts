import { LANGUAGES } from '../../config';
import type { BaseDoc, RecordStore } from '../storage/recordStore';
import type { ClaimedEntry, SyncKind, SyncQueue } from '../storage/syncQueue';

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
 * The current sync version of each record, read BEFORE its content (the worker's invariant: the
 * content indexed is never older than its version). Records without a sync entry get one
 * (pending, so the worker indexes them too).
 */
export async function currentVersions(sync: SyncQueue, kind: SyncKind, ids: number[]): Promise<ClaimedEntry[]> {
  const entries = await sync.entriesOf(kind, ids);
  const missing = ids.filter((id) => !entries.has(id));
  if (missing.length > 0) {
    await sync.markDirty(kind, missing);
    for (const [id, entry] of await sync.entriesOf(kind, missing)) entries.set(id, entry);
  }
  return ids.flatMap((id) => {
    const entry = entries.get(id);
    return entry ? [{ key: entry._id, kind, id, version: entry.version }] : [];
  });
}
