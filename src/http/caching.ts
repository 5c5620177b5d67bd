import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Middleware } from 'koa';
import type { Config } from '../../config';
import type { AppContext, AppState } from './types';

/** What a revalidation compares: the entity tag, and for single reads the time of the last change. */
export interface Validator {
  etag: string;
  lastModified?: Date;
}

/**
 * Bump when what answers are made of changes without the data changing (a presenter's output,
 * the feed's layout): clients holding an entity tag of the previous format get the new answer.
 */
const ETAG_FORMAT = 1;

/**
 * A weak entity tag (`W/"…"`) over `parts`. Weak because answers are compressed as each client
 * accepts (a strong tag would have to differ per encoding, RFC 9110 8.8.3) and because the tag of
 * a read or list is made from what it shows (record versions, IDs), not from its bytes: two answers
 * with the same tag are the same record data, and weak comparison is what `If-None-Match` uses.
 */
export function weakEtag(parts: readonly unknown[]): string {
  const hash = createHash('sha1')
    .update(JSON.stringify([ETAG_FORMAT, ...parts]))
    .digest('base64url');
  return `W/"${hash.slice(0, 27)}"`;
}

/**
 * Sets the answer's validators and tells whether the request's own (`If-None-Match`, else
 * `If-Modified-Since`) still match: the answer is then 304, without a body, and the caller
 * stops. A `Last-Modified` still in the current second is not sent: HTTP dates count seconds, so
 * a client holding it would not see a second write within that second.
 */
export function answeredNotModified(ctx: AppContext, validator: Validator): boolean {
  ctx.set('ETag', validator.etag);
  const { lastModified } = validator;
  if (lastModified && Math.floor(lastModified.getTime() / 1000) < Math.floor(Date.now() / 1000)) {
    ctx.lastModified = lastModified;
  }
  ctx.status = 200;
  if (!matchesConditions(ctx)) return false;
  ctx.status = 304;
  return true;
}

const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');

/**
 * RFC 9110 13.2.2 for a GET or HEAD: `If-None-Match` (weak comparison, `*` for any) decides when
 * sent, else `If-Modified-Since`. Not Koa's `ctx.fresh` (the `fresh` package): it answers no to any
 * request with `Cache-Control: no-cache`, which fetch() adds to every conditional request it sends
 * itself, though that directive is for caches and an origin server still validates (RFC 9111 5.2.1.4).
 */
function matchesConditions(ctx: AppContext): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  const noneMatch = ctx.get('If-None-Match');
  const etag = ctx.response.get('ETag');
  if (noneMatch) {
    if (!etag) return false;
    if (noneMatch.trim() === '*') return true;
    return noneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
  }
  const modifiedSince = Date.parse(ctx.get('If-Modified-Since'));
  const lastModified = Date.parse(ctx.response.get('Last-Modified'));
  return Number.isFinite(modifiedSince) && Number.isFinite(lastModified) && lastModified <= modifiedSince;
}

/** `Cache-Control` of an answer anyone may be given: `public, max-age=N`, or `public, no-cache` for 0. */
export function publicCacheControl(config: Pick<Config['http'], 'cacheMaxAgeSeconds'>): string {
  return config.cacheMaxAgeSeconds > 0 ? `public, max-age=${config.cacheMaxAgeSeconds}` : 'public, no-cache';
}

/** Adds `names` to the answer's `Vary`, once each. */
export function vary(ctx: AppContext, ...names: string[]): void {
  for (const name of names) ctx.vary(name);
}

const isStream = (body: unknown): body is Readable => body instanceof Readable;

/**
 * The bytes Koa would send for `body`, made once here and sent as they are: an object is
 * stringified and encoded once (Koa's length, which the compression threshold reads, the
 * compressor and the socket would each do it again), and text is encoded once for the tag's hash
 * and the socket. Koa measures text as it is set, so routes with large answers set bytes
 * (listPage.ts, resource/read.ts): a list page with any character outside ASCII took 1-3 ms a pass.
 */
function bodyBytes(ctx: AppContext): Buffer | null {
  const { body } = ctx;
  if (Buffer.isBuffer(body)) return body;
  if (body === null || body === undefined || isStream(body)) return null;
  const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  if (typeof body !== 'string') ctx.type = 'application/json';
  ctx.body = bytes;
  return bytes;
}

/**
 * HTTP caching of every `GET` (EXTENSIONS part 13): `Cache-Control` (anonymous answers
 * `public, max-age=N`, or `public, no-cache` with `CACHE_MAX_AGE=0`; what depends on a key or a
 * password stays `private, no-store`, as set where it is decided), `Vary: Authorization`, and an
 * entity tag for answers whose route set none: a hash of the body (the namespace index, `/doc`,
 * lists of venues, organizers and terms), with the same 304 as the routes' own.
 */
export function httpCaching(config: Pick<Config['http'], 'cacheMaxAgeSeconds'>): Middleware<AppState> {
  const publicly = publicCacheControl(config);
  return async (ctx, next) => {
    await next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return;
    if (ctx.status !== 200 && ctx.status !== 304) return;
    // A shared cache must not answer a request with a key from an anonymous answer (RFC 9111 4.1).
    vary(ctx, 'Authorization');
    if (!ctx.response.get('Cache-Control')) {
      const anonymous = ctx.state.principal === undefined || ctx.state.principal.keyId === null;
      ctx.set('Cache-Control', anonymous ? publicly : 'private, no-store');
    }
    if (ctx.status !== 200) return;
    const bytes = bodyBytes(ctx);
    if (bytes === null || ctx.response.get('ETag')) return;
    ctx.set('ETag', weakEtag([createHash('sha1').update(bytes).digest('base64url')]));
    if (matchesConditions(ctx)) {
      ctx.status = 304;
      ctx.body = null;
    }
  };
}
