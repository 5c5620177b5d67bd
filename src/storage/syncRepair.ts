import type { RecordKind } from '../domain/kinds';
import { NEW_ENTRY, syncKey, type SyncQueue } from './syncQueue';

/**
 * `markDirty` for records whose index documents carry versions the queue may not know (a lost
 * or restored sync_state, a document indexed by hand): each version is first raised to its
 * floor, so the worker's write (at floor + 1 or more) is newer than the document it replaces.
 */
export async function markDirtyAbove(sync: SyncQueue, kind: RecordKind, floors: Map<number, number>): Promise<void> {
  const raising = new Map(floors);
  for (let attempt = 0; raising.size > 0 && attempt < 5; attempt++) {
    const current = await sync.entriesOf(kind, [...raising.keys()]);
    const raised = await Promise.all(
      [...raising].map(async ([id, floor]) => {
        const entry = current.get(id);
        if (entry && entry.version >= floor) return true;
        if (entry)
          return (
            (await sync.entries.updateOne({ _id: entry._id, version: entry.version }, { $set: { version: floor } }))
              .matchedCount > 0
          );
        // No entry: create it; a writer creating it at the same moment makes this retry.
        const created = {
          _id: syncKey(kind, id),
          kind,
          id,
          version: floor,
          pending: false,
          dirtyAt: new Date(),
          ...NEW_ENTRY,
        };
        return sync.entries.insertOne(created).then(
          () => true,
          () => false,
        );
      }),
    );
    [...raising.keys()].forEach((id, i) => raised[i] && raising.delete(id));
  }
  await sync.markDirty(kind, [...floors.keys()]);
}
