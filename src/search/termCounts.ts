import type { Language } from '../../config';
import type { Services } from '../services';
import { aliasName } from './indexNames';
import { listCacheOf } from './listCache';
import { searchIndex } from './listing';

type ApiRecord = Record<string, unknown>;
type Embedded = { id?: unknown; count?: unknown };

const TERM_FIELDS = [
  ['categories', 'category'],
  ['tags', 'tag'],
] as const;

/**
 * Events embed their terms, whose `count` changes whenever another event uses or drops them.
 * Re-indexing every event of a popular term on each such change would not scale, so a list
 * takes the current counts from the term indexes (kept current by the worker) when answering.
 */
export async function withCurrentTermCounts(
  services: Services,
  events: ApiRecord[],
  lang: Language,
): Promise<ApiRecord[]> {
  const counts = new Map<string, number>();
  const cache = listCacheOf(services);
  const cacheKey = (kind: string, id: string) => `term-count:${lang}:${kind}:${id}`;
  await Promise.all(
    TERM_FIELDS.map(async ([field, kind]) => {
      const ids = new Set<string>();
      for (const event of events)
        for (const term of (event[field] as Embedded[] | undefined) ?? []) {
          const id = String(term.id);
          const cached = cache.get<number>(cacheKey(kind, id));
          if (cached === undefined) ids.add(id);
          else counts.set(`${kind}:${id}`, cached);
        }
      if (ids.size === 0) return;
      const response = await searchIndex<{ count: number }>(services, {
        index: aliasName(services.config, kind, lang),
        query: { ids: { values: [...ids] } },
        size: ids.size,
        _source: ['count'],
      });
      for (const hit of response.hits.hits) {
        counts.set(`${kind}:${hit._id}`, hit._source?.count ?? 0);
        cache.set(cacheKey(kind, hit._id as string), hit._source?.count ?? 0);
      }
    }),
  );
  if (counts.size === 0) return events;
  return events.map((event) => {
    const patched = { ...event };
    for (const [field, kind] of TERM_FIELDS) {
      const terms = event[field] as Embedded[] | undefined;
      if (!Array.isArray(terms)) continue;
      patched[field] = terms.map((term) => {
        const count = counts.get(`${kind}:${String(term.id)}`);
        return count === undefined ? term : { ...term, count };
      });
    }
    return patched;
  });
}
