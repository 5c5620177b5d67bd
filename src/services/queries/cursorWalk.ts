import type { estypes } from '@elastic/elasticsearch';
import { ExpiredTokenError } from '../../domain/errors';
import type { SeriesWalk } from '../../search/eventQuery';
import type { Services } from '../container';
import { giveUpAfter } from '../../search/client';
import {
  extrasJsonOf,
  runListSearch,
  searchIndex,
  totalOf,
  withExtras,
  type ExtrasJson,
  type ListQuery,
} from './listing';

/** A walk keeps its snapshot this long after each page (EXTENSIONS 16). */
export const WALK_KEEP_ALIVE_MS = 5 * 60_000;
const KEEP_ALIVE = `${WALK_KEEP_ALIVE_MS / 60_000}m`;

/** Where a walk stands: its point in time, the sort values of the last hit given, how many were given. */
export interface WalkPosition {
  pit: string;
  after: estypes.SortResults | null;
  seen: number;
  /** Matches in the snapshot (counted on the first page: a snapshot does not change). */
  total: number;
}

export interface WalkPage {
  items: Record<string, unknown>[];
  /** Null once the walk is over. */
  next: WalkPosition | null;
  /** The walk's snapshot, kept 5 minutes after this page, the last one too (its cursor may come again). */
  pit: string;
  total: number;
  /** Fields the list adds after the envelope's (an event list's facets: of the whole snapshot). */
  extras?: ExtrasJson;
  /** What the page's entity tag is made of, when asked for and the list knows (ListQuery.revalidation). */
  tagParts?: unknown[];
}

/** 410 `cursor-expired`: the walk's snapshot is gone (5 minutes without a page). */
export const cursorExpired = (): ExpiredTokenError =>
  new ExpiredTokenError(
    'cursor-expired',
    'This cursor has expired (its walk kept 5 minutes after each page); start the walk again with cursor=.',
  );

/**
 * Whether a walk's search failed for its cursor, not its request: the snapshot is gone, or the
 * cursor's sort values no longer fit the list's order (a release that changed a sort).
 */
function isLapsedWalk(err: unknown): boolean {
  const e = err as { meta?: { statusCode?: number; body?: unknown } };
  const body = JSON.stringify(e.meta?.body ?? '');
  if (e.meta?.statusCode === 404) return /search_context_missing|No search context found|point in time/i.test(body);
  return e.meta?.statusCode === 400 && /search_after/.test(body);
}

/** Opens a snapshot of the list's index: a walk or an export reads all of its pages from it. */
export async function openWalk(services: Services, query: ListQuery): Promise<WalkPosition> {
  const index = query.request.index as string;
  try {
    const opened = await services.search.openPointInTime(
      { index, keep_alive: KEEP_ALIVE },
      giveUpAfter(services.config.elasticsearch.timeoutMs),
    );
    return { pit: opened.id, after: null, seen: 0, total: -1 };
  } catch (err) {
    // An index not created yet, or Elasticsearch down: the list's own 503.
    await searchIndex(services, { index, size: 0 });
    throw err;
  }
}

/** What a page of a walk read from its snapshot. */
interface PageHits {
  hits: estypes.SearchHit<unknown>[];
  /** The page's first search, with the list's aggregations. */
  response: estypes.SearchResponse<unknown>;
  /** The sort values of the last match the page went through; undefined when the snapshot has no more. */
  after?: estypes.SortResults;
  pit: string;
}

/** A search in the walk's snapshot, which is kept another 5 minutes. */
async function searchSnapshot(
  services: Services,
  query: ListQuery,
  pit: string,
  request: estypes.SearchRequest,
): Promise<estypes.SearchResponse<unknown>> {
  try {
    return await runListSearch(services, query, { ...request, pit: { id: pit, keep_alive: KEEP_ALIVE } });
  } catch (err) {
    if (isLapsedWalk((err as { cause?: unknown }).cause ?? err)) throw cursorExpired();
    throw err;
  }
}

/** The next `size` matches of a list's snapshot. */
async function matchesAfter(
  services: Services,
  query: ListQuery,
  request: estypes.SearchRequest,
  position: WalkPosition,
  size: number,
): Promise<PageHits> {
  const response = await searchSnapshot(services, query, position.pit, { ...request, size });
  const hits = response.hits.hits;
  const after = hits.length === size ? hits[hits.length - 1]?.sort : undefined;
  return { hits, response, after, pit: response.pit_id ?? position.pit };
}

/** Occurrences scanned per search, at most. */
const SCAN_MAX = 1_000;
/** Occurrences scanned per page, at most: past them the page ends with the entries found, the walk goes on. */
const PAGE_SCAN_MAX = 10_000;

/**
 * The next `size` entries of a list showing each series once (SeriesWalk). Each scan of a page
 * is four times the one before (a long series sorted by title runs contiguously), up to
 * SCAN_MAX occurrences, whose records are never read: only the entries' are, in one search. One
 * entry past the page is looked for, so that the walk ends with its last entry, not on a count
 * (the series count is an estimate); a page that scanned PAGE_SCAN_MAX occurrences without
 * finding it ends there, with fewer entries, and the walk goes on from the last one scanned.
 */
async function seriesEntriesAfter(
  services: Services,
  query: ListQuery,
  walk: SeriesWalk,
  request: estypes.SearchRequest,
  position: WalkPosition,
  size: number,
): Promise<PageHits> {
  const kept: estypes.SearchHit<unknown>[] = [];
  const entries = new Map<number, string>();
  // The list's aggregations (its total, its facets) are asked for by the page's first scan only.
  const scan = walk.scan(request);
  const { aggs: _aggs, ...scanOnly } = scan;
  let { pit, after } = position;
  let first: estypes.SearchResponse<unknown> | undefined;
  let scanned = 0;
  let next: estypes.SortResults | undefined;
  for (let round = 0; ; round++) {
    const asked = Math.min(SCAN_MAX, (size + 1) * 4 ** round);
    const response = await searchSnapshot(services, query, pit, {
      ...(first ? scanOnly : scan),
      size: asked,
      ...(after ? { search_after: after } : {}),
    });
    first ??= response;
    pit = response.pit_id ?? pit;
    const hits = response.hits.hits;
    scanned += hits.length;
    const unknown = [...new Set(hits.map(walk.seriesOf))].filter((series) => !entries.has(series));
    if (unknown.length > 0) {
      const named = walk.entriesOf(await searchSnapshot(services, query, pit, walk.entries(request, unknown)));
      for (const [series, entry] of named) entries.set(series, entry);
    }
    let extra = false;
    for (const hit of hits) {
      if (entries.get(walk.seriesOf(hit)) !== hit._id) continue;
      if (kept.length === size) {
        extra = true;
        break;
      }
      kept.push(hit);
    }
    if (extra) {
      next = kept[size - 1]!.sort;
      break;
    }
    after = hits[hits.length - 1]?.sort ?? after;
    if (hits.length < asked) break;
    if (scanned >= PAGE_SCAN_MAX) {
      next = after ?? undefined;
      break;
    }
  }
  const records = new Map<string, estypes.SearchHit<unknown>>();
  if (kept.length > 0) {
    const read = walk.records(
      request,
      kept.map((hit) => hit._id),
    );
    for (const hit of (await searchSnapshot(services, query, pit, read)).hits.hits) records.set(hit._id, hit);
  }
  // Each as scanned (its sort values: a distance), with its record.
  const hits = kept.flatMap((hit) => {
    const record = records.get(hit._id);
    return record ? [{ ...record, sort: hit.sort }] : [];
  });
  return { hits, response: first!, after: next, pit };
}

/**
 * The next `size` matches after `position`, in the list's order, from its snapshot; the snapshot
 * is kept another 5 minutes, after the last page too (EXTENSIONS 16: a client may ask for it
 * again). The point in time breaks ties between equal sort values itself (`_shard_doc`), so no
 * match is given twice or skipped, however deep. A list showing each series once walks its
 * series' entries.
 */
export async function walkPage(
  services: Services,
  query: ListQuery,
  position: WalkPosition,
  size: number,
  options: { countTotal?: boolean; tagged?: boolean } = {},
): Promise<WalkPage> {
  // A point in time names its indexes; answers from one are never kept in the request cache.
  const { index: _index, request_cache: _cache, ...unprepared } = query.request;
  const listed = query.prepare
    ? await query.prepare(unprepared, ({ index: _in, ...search }) =>
        searchSnapshot(services, query, position.pit, search),
      )
    : unprepared;
  const counting = position.total < 0 && options.countTotal !== false;
  const request = {
    ...listed,
    track_total_hits: counting && !query.seriesWalk,
    ...(position.after ? { search_after: position.after } : {}),
  };
  const read = query.seriesWalk
    ? await seriesEntriesAfter(services, query, query.seriesWalk, request, position, size)
    : await matchesAfter(services, query, request, position, size);
  const { hits, response, pit } = read;
  const total = counting ? (query.total ?? totalOf)(response) : position.total;
  const seen = position.seen + hits.length;
  // A series walk ends on its matches (seriesEntriesAfter), the others on their exact count too.
  const more = read.after !== undefined && (query.seriesWalk !== undefined || total < 0 || seen < total);
  const next = more ? { pit, after: read.after!, seen, total } : null;
  // A walk of one page handed out no cursor to ask for it again: its snapshot goes back at once.
  if (!next && position.after === null) await closeWalk(services, pit);
  const shown = { ...response, hits: { ...response.hits, hits } };
  const [items, extras, tagParts] = await Promise.all([
    query.present(hits),
    extrasJsonOf(query, response),
    options.tagged ? query.revalidation?.tagParts(shown) : undefined,
  ]);
  return {
    items,
    next,
    pit,
    total,
    ...(extras ? { extras } : {}),
    ...(tagParts ? { tagParts: withExtras(tagParts, extras) } : {}),
  };
}

/** Closes a walk's snapshot (best effort: an unclosed one lapses after 5 minutes). */
export async function closeWalk(services: Services, pit: string): Promise<void> {
  await services.search.closePointInTime({ id: pit }, giveUpAfter(2_000)).catch(() => undefined);
}
