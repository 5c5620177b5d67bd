import type { Language } from '../../../config';
import type { Services } from '../container';
import { giveUpAfter } from '../../search/client';
import { aliasName } from '../../search/indexNames';
import { processCacheOf } from './listCache';
import { PENDING_MEMO_MS } from '../../storage/syncQueue';
import type { TermKind } from '../../domain/kinds';

/** How long a single read waits for the index before counting in MongoDB instead. */
const INDEX_WAIT_MS = 500;

/**
 * Published-event counts of terms as the search index holds them, read with one multi-get
 * instead of an aggregation over every event. With `realtime` (the last write indexed, not only
 * the last refresh), exact while no change waits for the sync worker (the caller checks:
 * SyncQueue.hasPending). Terms the index lacks, or an index that does not answer fast, are absent
 * from the map: the caller counts those in MongoDB. `shared`: realtime answers are shared between
 * the reads of PENDING_MEMO_MS (the default with `realtime`).
 */
export async function indexedTermCounts(
  services: Services,
  kind: TermKind,
  ids: number[],
  lang: Language,
  { realtime, shared = realtime }: { realtime: boolean; shared?: boolean },
): Promise<Map<number, number>> {
  if (!realtime || !shared) return fetchIndexedCounts(services, kind, ids, lang, realtime);
  // Reads by ID ask on every call: answers are shared for as long as `hasPending` trusts its own.
  const cache = processCacheOf(services, PENDING_MEMO_MS);
  const found = await cache.sharedMany(`indexed-count:${kind}:${lang}`, ids, (todo) =>
    fetchIndexedCounts(services, kind, todo, lang, true),
  );
  const counts = new Map<number, number>();
  ids.forEach((id, i) => found[i] !== undefined && counts.set(id, found[i]!));
  return counts;
}

async function fetchIndexedCounts(
  services: Services,
  kind: TermKind,
  ids: number[],
  lang: Language,
  realtime: boolean,
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (ids.length === 0) return counts;
  const response = await services.search
    .mget<{ record?: { count?: number } }>(
      {
        index: aliasName(services.config, kind, lang),
        ids: ids.map(String),
        _source_includes: ['record.count'],
        realtime,
      },
      giveUpAfter(INDEX_WAIT_MS),
    )
    .catch(() => null);
  for (const doc of response?.docs ?? []) {
    const count = 'found' in doc && doc.found ? doc._source?.record?.count : undefined;
    if (typeof count === 'number') counts.set(Number(doc._id), count);
  }
  return counts;
}
