import type { Config } from '../../config';
import { PLURAL, type RecordKind } from '../domain/kinds';
import { NotFoundError } from '../domain/errors';
import {
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  pageCount,
  type ExtrasJson,
  type PageRequest,
} from '../services/queries/listing';
import { Joi } from './params';
import { requestQuery } from './query';
import type { AppContext, RequestContext } from './types';
import { restRoot } from './restRoot';

/** How a list pages: record lists cap `per_page` silently, others refuse what is past their limits. */
export type PagingRules =
  | { defaultPerPage: number; maxPerPage: number; over: 'cap' }
  | { defaultPerPage: number; maxPerPage: number; over: 'refuse'; maxPage: number };

const RECORD_LISTS: PagingRules = { defaultPerPage: DEFAULT_PER_PAGE, maxPerPage: MAX_PER_PAGE, over: 'cap' };

/** `page` and `per_page` of a list: integers from 1 (record lists: `per_page` capped at 50 silently). */
export function pagingParams(rules: PagingRules = RECORD_LISTS) {
  const page = Joi.number().integer().min(1).default(1).description('Page of results to return');
  const perPage = Joi.number().integer().min(1).default(rules.defaultPerPage);
  if (rules.over === 'cap')
    return {
      page,
      per_page: perPage.description(`Results per page (at most ${rules.maxPerPage}; larger values are capped)`),
    };
  return {
    page: page.max(rules.maxPage),
    per_page: perPage.max(rules.maxPerPage).description(`Results per page (at most ${rules.maxPerPage})`),
  };
}

function normalise(value: unknown): string {
  if (Array.isArray(value)) return value.map(normalise).join(',');
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/**
 * The parameters the caller sent, as applied (validated and normalised, `per_page` capped), in
 * the order sent: `rest_url` echoes them.
 */
function appliedParams(
  ctx: AppContext,
  input: Record<string, unknown>,
  overrides: Record<string, unknown>,
): Record<string, string> {
  const applied: Record<string, string> = {};
  for (const name of Object.keys(requestQuery(ctx))) {
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
  /** Fields the list adds after the envelope's (`facets`, `histogram`, `geo_grid` of events). */
  extras?: ExtrasJson;
  /** What its entity tag is made of, when the list knows (else the tag hashes the body). */
  tagParts?: unknown[];
}

/** A page past the last one (page > 1) of the list `name` is 404 `{name}-archive-page-not-found` (CONTRACT part 7). */
export function requirePage(name: string, page: number, totalPages: number): void {
  if (page > 1 && page > totalPages)
    throw new NotFoundError(
      `${name}-archive-page-not-found`,
      `Page ${page} does not exist: there are ${totalPages} page(s).`,
    );
}

/**
 * Answers a list page (CONTRACT part 7): the envelope, `X-Total`, `X-Total-Pages` and an RFC 8288
 * `Link` header. A page past the last one (page > 1) is 404 `{kind}-archive-page-not-found`.
 */
export function sendPage(
  ctx: RequestContext<object>,
  config: Pick<Config, 'apiUrl'>,
  kind: RecordKind,
  list: ListPage,
  path = `/${PLURAL[kind]}`,
): void {
  const { page, perPage } = list.page;
  const totalPages = pageCount(list.total, perPage);
  requirePage(kind, page, totalPages);
  const base = `${restRoot(ctx, config)}${path}`;
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
  sendListBody(
    ctx,
    PLURAL[kind],
    list.items,
    {
      rest_url: restUrl,
      ...(next ? { next_rest_url: next } : {}),
      ...(previous ? { previous_rest_url: previous } : {}),
      total: list.total,
      total_pages: totalPages,
    },
    list.extras,
  );
}

/**
 * A list answer as UTF-8: `{"<name>": items, ...fields, ...extras}`, the extras written as JSON
 * already (their entity tag took their digest). Each item is written and encoded on its own: V8
 * holds a string with one character past Latin-1 (a euro sign) as two-byte text, so a page
 * written as one string went two-byte whole for one such item, and a page's text as one string
 * cost two to three times its items' written apart, either way. Sent as bytes: a string body is
 * measured, then encoded again to be sent (caching.ts).
 */
function sendListBody(
  ctx: RequestContext<object>,
  name: string,
  items: unknown[],
  fields: object,
  extras: ExtrasJson | undefined,
): void {
  const pieces: Buffer[] = [Buffer.from(`{${JSON.stringify(name)}:[`)];
  items.forEach((item, i) => pieces.push(Buffer.from(`${i === 0 ? '' : ','}${JSON.stringify(item) ?? 'null'}`)));
  const tail = JSON.stringify(fields).slice(1);
  if (extras) pieces.push(Buffer.from(`],${tail.slice(0, -1)},`), extras.json.subarray(1));
  else pieces.push(Buffer.from(`],${tail}`));
  ctx.type = 'application/json';
  ctx.body = Buffer.concat(pieces);
}

/** One page of a cursor walk: `next` is the cursor of the page after it, null at the end. */
export interface CursorPage {
  items: unknown[];
  total: number;
  perPage: number;
  next: string | null;
  extras?: ExtrasJson;
}

/**
 * Answers a page of a cursor walk (EXTENSIONS 16): the list envelope with `next_cursor` (null at
 * the end), `next_rest_url` and a `Link` rel=next carrying it. Walks go forward only: no
 * previous link.
 */
export function sendCursorPage(
  ctx: RequestContext<object>,
  config: Pick<Config, 'apiUrl'>,
  kind: RecordKind,
  list: CursorPage,
  path = `/${PLURAL[kind]}`,
): void {
  const base = `${restRoot(ctx, config)}${path}`;
  const applied = appliedParams(ctx, ctx.input as Record<string, unknown>, { per_page: list.perPage });
  const next = list.next === null ? undefined : urlOf(base, { ...applied, cursor: list.next });
  const totalPages = pageCount(list.total, list.perPage);
  ctx.set('X-Total', String(list.total));
  ctx.set('X-Total-Pages', String(totalPages));
  if (next) ctx.set('Link', `<${next}>; rel="next"`);
  sendListBody(
    ctx,
    PLURAL[kind],
    list.items,
    {
      rest_url: urlOf(base, applied),
      ...(next ? { next_rest_url: next } : {}),
      next_cursor: list.next,
      total: list.total,
      total_pages: totalPages,
    },
    list.extras,
  );
}
