import type { RecordKind } from '../../domain/kinds';
import type { ChangeEntry } from '../../storage/changeLog';
import type { Services } from '../container';
import { listCacheOf } from './listCache';

/**
 * A read of the change log for a page fetches this many times the entries the page asks for, so
 * that the next pages of a follower catching up, and the pages of other followers a little further
 * on, are taken from it while nothing is written. On jongodb, which sorts the whole log for every
 * read, the read was most of a fresh page's time; on MongoDB it is a range of the `seq` index.
 */
export const LOG_READ_AHEAD = 2;

/** The process's last read of the log: from `from`, under the change marks of `key`. */
interface KeptRead {
  key: string;
  from: number;
  entries: Promise<ChangeEntry[]>;
}

const KEPT_READ = 'change-log-read';

/** Where `since` ends in entries ordered by `seq`: the index of the first one after it. */
function firstAfter(entries: readonly ChangeEntry[], since: number): number {
  let [low, high] = [0, entries.length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (entries[mid]!.seq <= since) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * What `ChangeLog.after` gives for these arguments, from the process's last read of the log when
 * that read was made under the same change `marks` (nothing written since, from any process:
 * storage/changeMarks.ts) and holds `limit` entries past `since`: the entries it gives are then
 * those a read now would give, settled by an earlier time. A page of fewer, the feed's last,
 * is read again every time: which of its changes have settled depends on the time. The read is
 * kept LIST_CACHE_TTL_MS at most, and dropped as soon as this process writes.
 */
export async function changeEntriesAfter(
  services: Services,
  { since, kinds, limit }: { since: number; kinds?: RecordKind[]; limit: number },
  marks: readonly number[],
  settledAt: Date,
): Promise<ChangeEntry[]> {
  const cache = listCacheOf(services);
  const key = JSON.stringify([marks, kinds ?? null]);
  const kept = cache.get<KeptRead>(KEPT_READ);
  if (kept && kept.key === key && kept.from <= since) {
    const entries = await kept.entries.catch(() => []);
    const start = firstAfter(entries, since);
    if (entries.length - start >= limit) return entries.slice(start, start + limit);
  }
  const read: KeptRead = {
    key,
    from: since,
    entries: services.sync.changes.after(since, kinds, limit * LOG_READ_AHEAD, settledAt),
  };
  cache.set(KEPT_READ, read);
  read.entries.catch(() => cache.last(KEPT_READ) === read && cache.delete(KEPT_READ));
  return (await read.entries).slice(0, limit);
}
