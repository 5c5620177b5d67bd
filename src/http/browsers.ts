import cors from '@koa/cors';
import type { Middleware } from 'koa';
import type { AppState } from './types';

/** Headers a page's script may read from a cross-origin response (lists, created records, errors). */
const EXPOSED_HEADERS = [
  'X-Total',
  'X-Total-Pages',
  'Link',
  'Location',
  'Content-Language',
  'Preference-Applied',
  'Retry-After',
  'Allow',
  'X-Request-Id',
];
/** Request headers a page may send: credentials, bodies, languages, `Prefer: wait-for-index`. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Content-Encoding',
  'Accept-Language',
  'Prefer',
  'X-Request-Id',
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

const HTML_SPECIAL = /[<>&\u2028\u2029]/g;
const escapeHtmlSpecial = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * JSON bodies with `<`, `>`, `&`, U+2028 and U+2029 written as `\u003c`... (as Go's encoder
 * does): the same JSON to a parser, and a page that inlines a response in a `<script>` cannot be
 * broken out of by a `</script>` in an event's text. With `nosniff`, no browser reads a JSON
 * response as HTML or script.
 */
export function htmlSafeJson(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    const body: unknown = ctx.body;
    if (
      body === null ||
      typeof body !== 'object' ||
      Buffer.isBuffer(body) ||
      typeof (body as { pipe?: unknown }).pipe === 'function'
    )
      return;
    // Koa typed the body JSON when it was set (or kept the handler's type): a string keeps it.
    ctx.body = JSON.stringify(body).replace(HTML_SPECIAL, escapeHtmlSpecial);
  };
}
