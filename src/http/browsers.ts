import cors from '@koa/cors';
import type { Middleware } from 'koa';
import type { AppState } from './types';

/** Headers a page's script may read from a cross-origin response (lists, created records, errors). */
const EXPOSED_HEADERS = [
  'X-Total',
  'X-Total-Pages',
  'X-Changes-Since',
  'Link',
  'Location',
  'Content-Language',
  'Preference-Applied',
  'Retry-After',
  'Allow',
  'X-Request-Id',
  'ETag',
];
/** Request headers a page may send: credentials, bodies, languages, `Prefer: wait-for-index`. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Content-Encoding',
  'Accept-Language',
  'Prefer',
  'X-Request-Id',
  'If-None-Match',
  'If-Modified-Since',
];
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** How long a browser may reuse a preflight answer (seconds). */
const PREFLIGHT_MAX_AGE = 600;

/**
 * CORS, so that sites can call the API from their pages: any origin (`'*'`) or only those listed
 * (none: no CORS headers). Credentials are API keys sent in `Authorization`, never cookies, so no
 * origin is given `Allow-Credentials`: a page can only act with a key it holds itself.
 */
export function crossOriginAccess(origins: '*' | readonly string[]): Middleware<AppState> {
  const allowed = new Set(origins);
  return cors({
    origin: origins === '*' ? '*' : (ctx) => (allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : ''),
    allowMethods: ALLOWED_METHODS,
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE,
  }) as Middleware<AppState>;
}

/**
 * `nosniff` on every answer: no browser reads a JSON answer as HTML or script. Decision: JSON is
 * not HTML-escaped (`<` as `\u003c`) here, as it is not by WordPress or most JSON APIs: it cost
 * 0.1-0.2 ms a list page on the bench machine, and a page that inlines an answer must escape it
 * itself anyway once it has parsed and re-serialised it (as `json_ld` is meant to be).
 */
export function noSniff(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    ctx.set('X-Content-Type-Options', 'nosniff');
  };
}
