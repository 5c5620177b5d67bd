import { createHash } from 'node:crypto';
import type { estypes } from '@elastic/elasticsearch';
import { BadRequestError, DependencyUnavailableError } from '../../domain/errors';
import type { Services } from '../container';
import { giveUpAfter, isSearchUnreachable } from '../../search/client';
import type { SeriesWalk } from '../../search/eventQuery';

export const DEFAULT_PER_PAGE = 6;
export const MAX_PER_PAGE = 50;
/** Elasticsearch's result window: results past it cannot be paged to. */
export const MAX_RESULT_WINDOW = 10_000;

export interface PageRequest {
  page: number;
  perPage: number;
  from: number;
  size: number;
}

/** How far a list pages: its largest page and how many results can be paged through. */
export interface PageLimits {
  maxPerPage: number;
  resultWindow: number;
}

/** The limits of the record lists, answered by Elasticsearch. */
export const SEARCH_PAGE_LIMITS: PageLimits = { maxPerPage: MAX_PER_PAGE, resultWindow: MAX_RESULT_WINDOW };

/** The page a list asks for, as an offset (`from`) and a count (`size`). */
export function pageRequest(page: number, perPage: number, limits: PageLimits = SEARCH_PAGE_LIMITS): PageRequest {
  const { maxPerPage, resultWindow } = limits;
  const capped = Math.min(perPage, maxPerPage);
  const from = (page - 1) * capped;
  if (from >= resultWindow) {
    throw new BadRequestError(
      'page-too-deep',
      `Results past the ${resultWindow}th cannot be listed; narrow the filters instead.`,
      {
        data: {
          params: { page: `page must be at most ${Math.ceil(resultWindow / capped)} with per_page ${capped}` },
        },
      },
    );
  }
  return { page, perPage: capped, from, size: Math.min(capped, resultWindow - from) };
}

/** How many pages of `perPage` hold `total` results. */
export const pageCount = (total: number, perPage: number): number => Math.ceil(total / perPage);

/** Fails fast: a list answers 503 `search-unavailable` within the search timeout. */
export function requestTimeoutOf(services: Services): number {
  // A quarter of the budget is left for the rest of the request and a busy event loop.
  return Math.max(250, Math.round(services.config.elasticsearch.timeoutMs * 0.75));
}

function isUnavailable(err: unknown): boolean {
  const e = err as { name?: string; meta?: { statusCode?: number; body?: { error?: { type?: string } } } };
  if (isSearchUnreachable(err)) return true;
  const status = e.meta?.statusCode ?? 0;
  return status === 429 || status >= 500 || e.meta?.body?.error?.type === 'index_not_found_exception';
}

/** What a list's request to the index answers; an unreachable, overloaded or not yet created index is a 503. */
async function fromIndex<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (err) {
    if (isUnavailable(err)) throw new DependencyUnavailableError('search', err);
    throw err;
  }
}

/** Fetches documents by ID (`mget`), failing as list searches do. */
export function getIndexed<T>(services: Services, request: estypes.MgetRequest): Promise<estypes.MgetResponse<T>> {
  return fromIndex(services.search.mget<T>(request, giveUpAfter(requestTimeoutOf(services))));
}

/** Runs a list search. */
export function searchIndex<T>(services: Services, request: estypes.SearchRequest): Promise<estypes.SearchResponse<T>> {
  return fromIndex(services.search.search<T>(request, giveUpAfter(requestTimeoutOf(services))));
}

/** Runs a search for a list: on its index, or in a walk's snapshot. */
export type Searcher = (request: estypes.SearchRequest) => Promise<estypes.SearchResponse<unknown>>;

/**
 * A list's search, built once per request from its filters and the caller: `request` filters and
 * sorts (no `from`/`size`); `present` turns a page of hits into the records the list shows.
 * Pages, cursor walks and exports all run it (src/search/cursorWalk.ts).
 */
export interface ListQuery {
  request: estypes.SearchRequest;
  present(hits: estypes.SearchHit<unknown>[]): Promise<Record<string, unknown>[]>;
  /** What the list's `total` counts, when not the search's hits (an event list collapsed per series). */
  total?(response: estypes.SearchResponse<unknown>): number;
  /** How a walk finds the entries of a list showing each series once. */
  seriesWalk?: SeriesWalk;
  /**
   * Completes `request` (the list's search, or what a walk or an export makes of it) with what is
   * first read by `search` from the index, or from a walk's snapshot: an `include` list's shown
   * occurrences.
   */
  prepare?(request: estypes.SearchRequest, search: Searcher): Promise<estypes.SearchRequest>;
  /** Fields a page adds after the envelope's, from the whole answer (an event list's facets). */
  extras?(response: estypes.SearchResponse<unknown>): Promise<object | undefined>;
  /** The error a failed search answers instead (a histogram's zone Elasticsearch does not know). */
  refine?(err: unknown): unknown;
  /**
   * What a page's entity tag is made of, from its hits (only the `source` fields of each are
   * read), so that a revalidation is answered before the records are fetched and presented.
   * Lists without it are tagged by their body.
   */
  revalidation?: {
    source: string[];
    tagParts(response: estypes.SearchResponse<unknown>): Promise<unknown[]>;
  };
}

/**
 * Asked, before a page is fetched whole, with the `tagParts` of the page as it stands: true when
 * the client's copy is current (the list then answers 304 and `pageOf` returns null).
 */
export type ListProbe = (tagParts: unknown[]) => boolean;

/** Runs a list's search with its own errors. */
export function runListSearch(services: Services, query: ListQuery, request: estypes.SearchRequest) {
  return searchIndex<unknown>(services, request).catch((err: unknown) => {
    throw query.refine ? query.refine(err) : err;
  });
}

/** A built search without its page window: runners set `from`/`size` or a cursor's `search_after`. */
export function withoutWindow(request: estypes.SearchRequest): estypes.SearchRequest {
  const { from: _from, size: _size, ...rest } = request;
  return rest;
}

export interface ListedPage {
  items: Record<string, unknown>[];
  total: number;
  page: PageRequest;
  extras?: ExtrasJson;
  /** What its entity tag is made of, when the list knows (else the tag hashes the body). */
  tagParts?: unknown[];
}

/**
 * One numbered page of a list (`page` and `per_page`). With `probe` (a revalidation) and a list
 * that can tag a page from its hits, the hits are first fetched without their records: when the
 * client's copy is current, that is all (null). Extras (facets, histogram, tiles) count beyond the
 * page, so a page with them is tagged by them too, from the whole answer.
 */
export async function pageOf(
  services: Services,
  query: ListQuery,
  page: PageRequest,
  probe?: ListProbe,
): Promise<ListedPage | null> {
  const request = query.prepare
    ? await query.prepare(query.request, (search) => runListSearch(services, query, search))
    : query.request;
  const windowed = { ...request, from: page.from, size: page.size };
  const { revalidation } = query;
  if (probe && revalidation && !query.extras) {
    const light = await runListSearch(services, query, { ...windowed, _source: revalidation.source });
    // A page past the last one is a 404, which only the whole answer makes.
    const exists = page.page === 1 || light.hits.hits.length > 0;
    if (exists && probe(await revalidation.tagParts(light))) return null;
  }
  const response = await runListSearch(services, query, windowed);
  const [items, extras, tagParts] = await Promise.all([
    query.present(response.hits.hits),
    extrasJsonOf(query, response),
    revalidation?.tagParts(response),
  ]);
  return {
    items,
    total: query.total ? query.total(response) : totalOf(response),
    page,
    ...(extras ? { extras } : {}),
    ...(tagParts ? { tagParts: withExtras(tagParts, extras) } : {}),
  };
}

/** A page's entity tag parts with its extras' digest: extras count beyond the page's hits. */
export function withExtras(tagParts: unknown[], extras: ExtrasJson | undefined): unknown[] {
  return extras ? [...tagParts, extras.digest] : tagParts;
}

/** A page's extras written as JSON once, for its body and (by their digest) its entity tag. */
export interface ExtrasJson {
  /** A JSON object, in UTF-8: the fields the page adds after the envelope's. */
  json: Buffer;
  /** SHA-1 of `json`. */
  digest: string;
}

/** The list's extras for a search response, as JSON (none when the list has none, or they are empty). */
export async function extrasJsonOf(
  query: ListQuery,
  response: estypes.SearchResponse<unknown>,
): Promise<ExtrasJson | undefined> {
  const extras = await query.extras?.(response);
  if (!extras || Object.keys(extras).length === 0) return undefined;
  // Encoded once: hashing the text would encode it again.
  const json = Buffer.from(JSON.stringify(extras));
  return { json, digest: createHash('sha1').update(json).digest('base64url') };
}

export function totalOf(response: estypes.SearchResponse<unknown>): number {
  const total = response.hits.total;
  return typeof total === 'number' ? total : (total?.value ?? 0);
}
