import type { ChangeStream, Collection } from 'mongodb';
import type { SyncEntry } from './syncQueue';

/**
 * Calls `onChange` when any process marks a record dirty, from a change stream (MongoDB replica
 * sets). A server without change streams (jongodb) calls `onUnavailable` once instead: the
 * caller keeps polling. Returns the function that stops watching.
 */
export function watchDirtyEntries(
  entries: Collection<SyncEntry>,
  onChange: () => void,
  onUnavailable: (err: Error) => void,
): () => Promise<void> {
  let stream: ChangeStream<SyncEntry> | undefined;
  const stop = async () => {
    await stream?.close().catch(() => undefined);
    stream = undefined;
  };
  try {
    // Every begin, commit and markDirty bumps `version` (claims and completions do not). Matching
    // `pending: true` missed commits: begin had already set it, and unchanged fields are not listed.
    stream = entries.watch([
      {
        $match: {
          $or: [{ operationType: 'insert' }, { 'updateDescription.updatedFields.version': { $exists: true } }],
        },
      },
    ]);
  } catch (err) {
    onUnavailable(err as Error);
    return stop;
  }
  stream.on('change', onChange);
  // `on`, not `once`: a second error (a getMore failing while the stream closes) must not go unheard and crash the process.
  let failed = false;
  stream.on('error', (err: Error) => {
    if (failed) return;
    failed = true;
    onUnavailable(err);
    void stop();
  });
  return stop;
}
