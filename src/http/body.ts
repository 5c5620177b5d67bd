import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import {
  BadRequestError,
  PayloadTooLargeError,
  RequestTimeoutError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../domain/errors';
import { QS_OPTIONS, unreadableParams } from './query';
import type { AppState } from './types';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ACCEPTED_TYPES = ['json', 'urlencoded', 'multipart'];
const ACCEPTED = 'application/json, application/x-www-form-urlencoded or multipart/form-data';

/**
 * U+FFFD (what bytes that are no UTF-8 become) or half a surrogate pair (a JSON `"\ud800"` escape,
 * which MongoDB would store as U+FFFD): text no client means to store.
 */
const UNREADABLE_TEXT = /\uFFFD|\p{Cs}/u;

/** Whether any string in a parsed body (keys included) holds unreadable text; iterative, for any depth. */
function holdsUnreadableText(body: unknown): boolean {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (UNREADABLE_TEXT.test(value)) return true;
    } else if (Array.isArray(value)) {
      // Indexes are no text: an array's items are pushed as they are (a 500,000-item array made
      // as many entry pairs).
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (UNREADABLE_TEXT.test(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/** Whether the request carries a body: a non-zero length or a chunked one (type-is's rule). */
function hasBody(ctx: { get(name: string): string }): boolean {
  const length = ctx.get('Content-Length');
  return length !== '' ? Number(length) > 0 : ctx.get('Transfer-Encoding') !== '';
}

/**
 * `tags[]` fields of a multipart form as `tags` lists, as the query string and urlencoded forms
 * read them (CONTRACT part 2: arrays as repeated `a[]=1&a[]=2`).
 */
export function foldArrayFields(fields: Record<string, unknown>): Record<string, unknown> {
  const folded: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!name.endsWith('[]')) {
      folded[name] = value;
      continue;
    }
    const list = name.slice(0, -2);
    const before = folded[list];
    const previous = before === undefined ? [] : Array.isArray(before) ? before : [before];
    folded[list] = [...previous, ...(Array.isArray(value) ? value : [value])];
  }
  return folded;
}

/**
 * A parser error without an HTTP status came from decoding the bytes, not from their syntax
 * (a corrupt gzip, deflate or br stream): the client's fault, so a 400 naming the encoding.
 */
function unreadableBody(err: unknown, encoding: string): unknown {
  const { status, statusCode, httpCode } = err as Record<string, unknown>;
  if ([status, statusCode, httpCode].some((code) => typeof code === 'number')) return err;
  return new ValidationError({
    body: `The request body could not be decoded${encoding ? ` as Content-Encoding ${encoding}` : ''}.`,
  });
}

/** formidable's code for a multipart body whose client left (raw-body says `type: 'request.aborted'`). */
const FORMIDABLE_ABORTED = 1002;

/** What reading a body failed with: a client that left is no server failure (both parsers' errors read as one). */
function readingFailure(err: unknown, encoding: string): unknown {
  const { type, code } = err as { type?: string; code?: unknown };
  if (type === 'request.aborted' || code === FORMIDABLE_ABORTED)
    return new BadRequestError(
      'rest_request_aborted',
      'The client closed the connection before sending its whole body.',
    );
  const refused = unreadableParams(err, 'body');
  return refused !== err ? refused : unreadableBody(err, encoding);
}

/**
 * Parses JSON, form and multipart bodies (CONTRACT part 2); any other body type is 415, bodies
 * past the limit are 413, and bodies not received within `timeoutMs` are 408 (Node's own
 * `requestTimeout` does not bound a body still arriving). Errors surface to the error boundary.
 */
export function parseBody(limitBytes: number, timeoutMs: number): Middleware<AppState> {
  const parser = koaBody({
    multipart: true,
    jsonLimit: limitBytes,
    formLimit: limitBytes,
    textLimit: limitBytes,
    text: false,
    jsonStrict: true,
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as never,
    // co-body reads `a.b=` as an object unless told otherwise: kept, as bodies always had it.
    queryString: { ...QS_OPTIONS, allowDots: true },
    formidable: { maxFileSize: limitBytes, maxFieldsSize: limitBytes, maxFiles: 0, allowEmptyFiles: true },
    onError: (err) => {
      throw err;
    },
  });
  return async (ctx, next) => {
    if (!BODY_METHODS.has(ctx.method) || !hasBody(ctx)) return next();
    if (!ctx.is(ACCEPTED_TYPES)) {
      const type = ctx.request.type;
      const problem = type
        ? `Unsupported request body type ${type}.`
        : `A request body needs a Content-Type: ${ACCEPTED}.`;
      throw new UnsupportedMediaTypeError(problem);
    }
    const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
    if (ctx.is('multipart') && encoding !== '' && encoding !== 'identity')
      throw new UnsupportedMediaTypeError(
        `A multipart body is read uncompressed only (it came with Content-Encoding ${encoding}): send it as is, or as JSON or a urlencoded form.`,
      );
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limitBytes) throw new PayloadTooLargeError();
    let parsed = false;
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new RequestTimeoutError(Math.round(timeoutMs / 1000)));
      }, timeoutMs);
    });
    const reading = parser(ctx, async () => {
      clearTimeout(timer);
      // Answered 408 already: a body arriving after that is not acted on.
      if (timedOut) return;
      parsed = true;
      const request = ctx.request as { body?: unknown };
      // Bodies are read as UTF-8, whatever charset they declare (ASCII is the same), and bytes
      // that are no UTF-8 come out as U+FFFD: refused, not stored as `Caf� crème`.
      if (holdsUnreadableText(request.body))
        throw new ValidationError({
          body: 'The request body is not valid UTF-8 (or holds U+FFFD, the character such bytes become, or half a UTF-16 surrogate pair).',
        });
      if (ctx.is('multipart') && request.body && typeof request.body === 'object')
        request.body = foldArrayFields(request.body as Record<string, unknown>);
      await next();
    });
    // After a 408 the read ends when the connection closes: that failure has no one to tell.
    reading.catch(() => undefined);
    try {
      await Promise.race([reading, deadline]);
    } catch (err) {
      if (parsed) throw err;
      throw timedOut ? err : readingFailure(err, ctx.get('Content-Encoding'));
    } finally {
      clearTimeout(timer);
    }
  };
}
