import type { estypes } from '@elastic/elasticsearch';
import type { Config } from '../../config';
import { BadRequestError, DependencyUnavailableError, NotFoundError } from '../errors';
import { Joi } from '../http/params';
import { requestQuery } from '../http/query';
import type { AppContext, RequestContext } from '../http/types';
import { restRoot } from '../http/urls';
import type { Services } from '../services';
import type { SyncKind } from '../storage/syncQueue';
import { giveUpAfter } from './client';
import { PLURAL } from './indexNames';

export const DEFAULT_PER_PAGE = 6;
export const MAX_PER_PAGE = 50;
/** Elasticsearch's result window: results past it cannot be paged to. */
export const MAX_RESULT_WINDOW = 10_000;

/** `page` and `per_page` of every list: integers from 1; `per_page` is capped at 50 silently. */
export function pagingParams() {
  return {
    page: Joi.number().integer().min(1).default(1).description('Page of results to return'),
    per_page: Joi.number()
      .integer()
      .min(1)
      .default(DEFAULT_PER_PAGE)
      .description(`Results per page (at most ${MAX_PER_PAGE}; larger values are capped)`),
  };
}

export interface PageRequest {
  page: number;
  perPage: number;
  from: number;
  size: number;
}

export function pageRequest(page: number, perPage: number): PageRequest {
  const capped = Math.min(perPage, MAX_PER_PAGE);
  const from = (page - 1) * capped;
  if (from >= MAX_RESULT_WINDOW) {
    throw new BadRequestError(
      'page-too-deep',
      `Results past the ${MAX_RESULT_WINDOW}th cannot be listed; narrow the filters instead.`,
      {
        data: {
          params: { page: `page must be at most ${Math.ceil(MAX_RESULT_WINDOW / capped)} with per_page ${capped}` },
        },
      },
    );
  }
  return { page, perPage: capped, from, size: Math.min(capped, MAX_RESULT_WINDOW - from) };
}

/** Fails fast: a list answers 503 `search-unavailable` within the search timeout. */
function requestTimeoutOf(services: Services): number {
  // A quarter of the budget is left for the rest of the request and a busy event loop.
  return Math.max(250, Math.round(services.config.elasticsearch.timeoutMs * 0.75));
}

function isUnavailable(err: unknown): boolean {
  const e = err as { name?: string; meta?: { statusCode?: number; body?: { error?: { type?: string } } } };
  if (['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError', 'RequestAbortedError'].includes(e.name ?? ''))
    return true;
  const status = e.meta?.statusCode ?? 0;
  return status === 429 || status >= 500 || e.meta?.body?.error?.type === 'index_not_found_exception';
}

/** Runs a list search; an unreachable, overloaded or not yet created index is a 503. */
export async function searchIndex<T>(
  services: Services,
  request: estypes.SearchRequest,
): Promise<estypes.SearchResponse<T>> {
  try {
    return await services.search.search<T>(request, giveUpAfter(requestTimeoutOf(services)));
  } catch (err) {
    if (isUnavailable(err)) throw new DependencyUnavailableError('search', err);
    throw err;
  }
}

export function totalOf(response: estypes.SearchResponse<unknown>): number {
  const total = response.hits.total;
  return typeof total === 'number' ? total : (total?.value ?? 0);
}

function normalise(value: unknown): string {
  if (Array.isArray(value)) return value.map(normalise).join(',');
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** Names of the parameters the caller sent in the query string. */
export function sentParams(ctx: AppContext): string[] {
  return Object.keys(requestQuery(ctx));
}

/**
 * The parameters the caller sent, as applied (validated and normalised, `per_page` capped), in
 * the order sent: `rest_url` echoes them.
 */
function appliedParams(
  ctx: AppContext,
  input: Record<string, unknown>,
  overrides: Record<string, unknown> = {},
): Record<string, string> {
  const sent = sentParams(ctx);
  const applied: Record<string, string> = {};
  for (const name of sent) {
    const value = name in overrides ? overrides[name] : input[name];
    if (value !== undefined && value !== null) applied[name] = normalise(value);
  }
  return applied;
}

function urlOf(base: string, params: Record<string, string>): string {
  const query = Object.entries(params)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value).replace(/%2C/g, ',')}`)
    .join('&');
  return query ? `${base}?${query}` : base;
}

/** One page of a list, as the list modules answer it. */
export interface ListPage {
  items: unknown[];
  total: number;
  page: PageRequest;
}

/**
 * Answers a list page (CONTRACT part 7): the envelope, `X-Total`, `X-Total-Pages` and an RFC 8288
 * `Link` header. A page past the last one (page > 1) is 404 `{kind}-archive-page-not-found`.
 */
export function sendPage(
  ctx: RequestContext<object>,
  config: Pick<Config, 'apiUrl'>,
  kind: SyncKind,
  list: ListPage,
): void {
  const { page, perPage } = list.page;
  const totalPages = Math.ceil(list.total / perPage);
  if (page > 1 && page > totalPages) {
    throw new NotFoundError(
      `${kind}-archive-page-not-found`,
      `Page ${page} does not exist: there are ${totalPages} page(s).`,
    );
  }
  const base = `${restRoot(ctx, config)}/${PLURAL[kind]}`;
  const applied = appliedParams(ctx, ctx.input as Record<string, unknown>, { per_page: perPage });
  const { page: _page, ...params } = applied;
  const withPage = (n: number) => urlOf(base, n === 1 ? params : { ...params, page: String(n) });
  const restUrl = urlOf(base, applied);
  const next = page < totalPages ? withPage(page + 1) : undefined;
  const previous = page > 1 ? withPage(page - 1) : undefined;
  ctx.set('X-Total', String(list.total));
  ctx.set('X-Total-Pages', String(totalPages));
  const links = [next && `<${next}>; rel="next"`, previous && `<${previous}>; rel="prev"`].filter(Boolean);
  if (links.length > 0) ctx.set('Link', links.join(', '));
  ctx.body = {
    [PLURAL[kind]]: list.items,
    rest_url: restUrl,
    ...(next ? { next_rest_url: next } : {}),
    ...(previous ? { previous_rest_url: previous } : {}),
    total: list.total,
    total_pages: totalPages,
  };
}
