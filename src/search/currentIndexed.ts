import type { Language } from '../../config';
import type { Services } from '../services';
import { syncKey, type SyncKind } from '../storage/syncQueue';
import { aliasName } from './indexNames';

type ApiRecord = Record<string, unknown>;

export interface IndexedRefs {
  kind: SyncKind;
  ids: number[];
}

/** How long a single read waits for the index before loading everything from MongoDB instead. */
const INDEX_WAIT_MS = 500;

/**
 * The API records of `wanted` as the search index holds them (realtime get: no refresh needed),
 * keyed `kind:id`, for those whose indexed version is their current one: sync entry settled and
 * the document at that very version. Nothing when a record of `settled` has a change not indexed
 * yet (its reader wants what was just written, exactly), or when the index does not answer fast:
 * the caller then loads from MongoDB. One sync-queue query and one multi-get for everything.
 */
export async function currentIndexedRecords(
  services: Services,
  wanted: IndexedRefs[],
  settled: IndexedRefs[],
  lang: Language,
): Promise<Map<string, ApiRecord>> {
  const out = new Map<string, ApiRecord>();
  const refs = wanted.flatMap(({ kind, ids }) => ids.map((id) => ({ kind, id, key: syncKey(kind, id) })));
  if (refs.length === 0) return out;
  const settledKeys = settled.flatMap(({ kind, ids }) => ids.map((id) => syncKey(kind, id)));
  const [entries, response] = await Promise.all([
    services.sync.entriesByKey([...refs.map((ref) => ref.key), ...settledKeys]),
    services.search
      .mget<{ record: ApiRecord }>(
        {
          docs: refs.map((ref) => ({ _index: aliasName(services.config, ref.kind, lang), _id: String(ref.id) })),
          _source_includes: ['record'],
        },
        { requestTimeout: INDEX_WAIT_MS, maxRetries: 0 },
      )
      .catch(() => null),
  ]);
  if (!response || settledKeys.some((key) => entries.get(key)?.pending !== false)) return out;
  response.docs.forEach((doc, i) => {
    const ref = refs[i]!;
    const entry = entries.get(ref.key);
    if (!entry || entry.pending || !('found' in doc) || !doc.found || doc._version !== entry.version || !doc._source)
      return;
    out.set(ref.key, doc._source.record);
  });
  return out;
}
