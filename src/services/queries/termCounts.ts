import type { Language } from '../../../config';
import type { Services } from '../container';
import { aliasName } from '../../search/indexNames';
import { listCacheOf } from './listCache';
import { searchIndex } from './listing';
import type { TermKind } from '../../domain/kinds';

type ApiRecord = Record<string, unknown>;
type Embedded = { id?: unknown; count?: unknown };
/** Term ID → its count in the term index; undefined when the term is not (or no longer) indexed. */
type CountTable = ReadonlyMap<string, number | undefined>;

const TERM_FIELDS = [
  ['categories', 'category'],
  ['tags', 'tag'],
] as const;

/** Beyond the terms a page asks for, at most this many known ones are refreshed with them. */
const MAX_REFRESHED_TERMS = 500;

/** A term an event embeds, and the count the event shows of it. */
export interface EmbeddedTerm {
  kind: TermKind;
  id: string;
  count: unknown;
}

/** The terms `event` embeds, with the counts it shows. */
export function embeddedTermsOf(event: ApiRecord): EmbeddedTerm[] {
  return TERM_FIELDS.flatMap(([field, kind]) =>
    ((event[field] as Embedded[] | undefined) ?? []).map((term) => ({ kind, id: String(term.id), count: term.count })),
  );
}

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
  const tables = await countTablesOf(services, termIdsByKind(events.flatMap(embeddedTermsOf)), lang);
  if (tables.size === 0) return events;
  return events.map((event) => {
    const patched = { ...event };
    for (const [field, kind] of TERM_FIELDS) {
      const terms = event[field] as Embedded[] | undefined;
      const table = tables.get(kind);
      if (!Array.isArray(terms) || !table) continue;
      patched[field] = terms.map((term) => {
        const count = table.get(String(term.id));
        return count === undefined ? term : { ...term, count };
      });
    }
    return patched;
  });
}

/**
 * The counts `withCurrentTermCounts` gives the terms `events` embed (only their `id`s are read),
 * as `[term ID, count]` per kind: what a list's entity tag takes from them.
 */
export async function currentTermCountsOf(
  services: Services,
  events: ApiRecord[],
  lang: Language,
): Promise<[string, number | undefined][][]> {
  const ids = termIdsByKind(events.flatMap(embeddedTermsOf));
  const tables = await countTablesOf(services, ids, lang);
  return TERM_FIELDS.map(([, kind]) => [...(ids.get(kind) ?? [])].map((id) => [id, tables.get(kind)?.get(id)]));
}

/**
 * Whether each of `shown` (each an event's embedded terms) still shows the counts
 * `withCurrentTermCounts` would give it now: a term the index does not count keeps the event's own.
 */
export async function countsStillCurrent(
  services: Services,
  shown: readonly EmbeddedTerm[][],
  lang: Language,
): Promise<boolean[]> {
  const tables = await countTablesOf(services, termIdsByKind(shown.flat()), lang);
  return shown.map((terms) =>
    terms.every((term) => {
      const count = tables.get(term.kind)?.get(term.id);
      return count === undefined || count === term.count;
    }),
  );
}

/** The IDs of `terms`, per kind, in the order they come. */
function termIdsByKind(terms: readonly EmbeddedTerm[]): Map<TermKind, Set<string>> {
  const byKind = new Map<TermKind, Set<string>>();
  for (const { kind, id } of terms) {
    const ids = byKind.get(kind) ?? new Set<string>();
    byKind.set(kind, ids.add(id));
  }
  return byKind;
}

/** The count table of each term kind in `ids`. */
async function countTablesOf(
  services: Services,
  ids: ReadonlyMap<TermKind, Set<string>>,
  lang: Language,
): Promise<Map<TermKind, CountTable>> {
  const tables = new Map<TermKind, CountTable>();
  await Promise.all(
    [...ids].map(async ([kind, kindIds]) => tables.set(kind, await currentCounts(services, kind, lang, kindIds))),
  );
  return tables;
}

/**
 * The current counts of `ids` (and of the other terms of the kind this process was asked about),
 * from a table cached per kind and language. A lookup refreshes every known term at once, so
 * lists cost at most about one count query per kind and language per cache period, however
 * many different terms their pages show. Concurrent requests share one lookup.
 */
function currentCounts(services: Services, kind: TermKind, lang: Language, ids: Set<string>): Promise<CountTable> {
  return listCacheOf(services).sharedTable(
    `term-counts:${kind}:${lang}`,
    ids,
    (wanted) => fetchCounts(services, kind, lang, wanted),
    MAX_REFRESHED_TERMS,
  );
}

async function fetchCounts(
  services: Services,
  kind: TermKind,
  lang: Language,
  ids: string[],
): Promise<Map<string, number>> {
  const response = await searchIndex<{ count: number }>(services, {
    index: aliasName(services.config, kind, lang),
    query: { ids: { values: ids } },
    size: ids.length,
    _source: ['count'],
  });
  return new Map(response.hits.hits.map((hit) => [hit._id as string, hit._source?.count ?? 0]));
}
