import type { estypes } from '@elastic/elasticsearch';
import { ExpiredTokenError, ValidationError } from '../../domain/errors';
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

function isMissingContext(err: unknown): boolean {
  const e = err as { meta?: { statusCode?: number; body?: unknown } };
  if (e.meta?.statusCode !== 404) return false;
  return /search_context_missing|No search context found|point in time/i.test(JSON.stringify(e.meta.body ?? ''));
}

/** Opens a snapshot of the list's index: a walk or an export reads all of its pages from it. */
export async function openWalk(services: Services, query: ListQuery): Promise<WalkPosition> {
  if (query.unwalkable) {
    throw new ValidationError({
      [query.unwalkable]: `A list that shows each series once is paged with page and per_page only: it cannot be walked with cursor or exported; leave ${query.unwalkable} out to walk every occurrence.`,
    });
  }
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

/**
 * The next `size` matches after `position`, in the list's order, from its snapshot; the snapshot
 * is kept another 5 minutes, after the last page too (EXTENSIONS 16: a client may ask for it
 * again). The point in time breaks ties between equal sort values itself (`_shard_doc`), so no
 * match is given twice or skipped, however deep.
 */
export async function walkPage(
  services: Services,
  query: ListQuery,
  position: WalkPosition,
  size: number,
  options: { countTotal?: boolean; tagged?: boolean } = {},
): Promise<WalkPage> {
  // A point in time names its indexes; answers from one are never kept in the request cache.
  const { index: _index, request_cache: _cache, ...request } = query.request;
  const counting = position.total < 0 && options.countTotal !== false;
  let response: estypes.SearchResponse<unknown>;
  try {
    response = await runListSearch(services, query, {
      ...request,
      pit: { id: position.pit, keep_alive: KEEP_ALIVE },
      size,
      track_total_hits: counting,
      ...(position.after ? { search_after: position.after } : {}),
    });
  } catch (err) {
    if (isMissingContext((err as { cause?: unknown }).cause ?? err)) throw cursorExpired();
    throw err;
  }
  const hits = response.hits.hits;
  const total = counting ? totalOf(response) : position.total;
  const seen = position.seen + hits.length;
  const last = hits[hits.length - 1];
  const pit = response.pit_id ?? position.pit;
  const more = hits.length === size && last?.sort !== undefined && (total < 0 || seen < total);
  const next = more ? { pit, after: last.sort!, seen, total } : null;
  // A walk of one page handed out no cursor to ask for it again: its snapshot goes back at once.
  if (!next && position.after === null) await closeWalk(services, pit);
  const [items, extras, tagParts] = await Promise.all([
    query.present(hits),
    extrasJsonOf(query, response),
    options.tagged ? query.revalidation?.tagParts(response) : undefined,
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
