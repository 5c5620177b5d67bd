import qs from 'qs';
import type { AppContext } from './types';

/** `a[]=1&a[]=2` and `a=1,2` lists, `a[b]=` objects three deep; bounded against abuse. */
const OPTIONS: qs.IParseOptions = { depth: 3, arrayLimit: 100, parameterLimit: 500 };
const parsed = new WeakMap<object, Record<string, unknown>>();

/**
 * The request's query string, parsed once per request (the language, the validator and the
 * `rest_url` echo all read it).
 */
export function requestQuery(ctx: Pick<AppContext, 'querystring' | 'request'>): Record<string, unknown> {
  let query = parsed.get(ctx.request);
  if (!query) {
    query = qs.parse(ctx.querystring, OPTIONS) as Record<string, unknown>;
    parsed.set(ctx.request, query);
  }
  return query;
}
