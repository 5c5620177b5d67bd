import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../errors';
import { QS_OPTIONS, unreadableParams } from './query';
import type { AppState } from './types';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ACCEPTED_TYPES = ['json', 'urlencoded', 'multipart'];
const ACCEPTED = 'application/json, application/x-www-form-urlencoded or multipart/form-data';

/** Whether any string in a parsed body (keys included) holds U+FFFD; iterative, for any depth. */
function holdsReplacementCharacter(body: unknown): boolean {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\uFFFD')) return true;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\uFFFD')) return true;
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

/**
 * Parses JSON, form and multipart bodies (CONTRACT part 2); any other body type is 415 and
 * bodies past the limit are 413. Errors surface to the error boundary.
 */
export function parseBody(limitBytes: number): Middleware<AppState> {
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
  }) as unknown as Middleware<AppState>;
  return async (ctx, next) => {
    if (!BODY_METHODS.has(ctx.method) || !hasBody(ctx)) return next();
    if (!ctx.is(ACCEPTED_TYPES)) {
      const type = ctx.request.type;
      const problem = type
        ? `Unsupported request body type ${type}.`
        : `A request body needs a Content-Type: ${ACCEPTED}.`;
      throw new UnsupportedMediaTypeError(problem);
    }
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limitBytes) throw new PayloadTooLargeError();
    let parsed = false;
    try {
      await parser(ctx, async () => {
        parsed = true;
        const request = ctx.request as { body?: unknown };
        // Bodies are read as UTF-8, whatever charset they declare (ASCII is the same), and bytes
        // that are no UTF-8 come out as U+FFFD: refused, not stored as `Caf� crème`.
        if (holdsReplacementCharacter(request.body))
          throw new ValidationError({
            body: 'The request body is not valid UTF-8 (or holds U+FFFD, the character such bytes become).',
          });
        if (ctx.is('multipart') && request.body && typeof request.body === 'object')
          request.body = foldArrayFields(request.body as Record<string, unknown>);
        await next();
      });
    } catch (err) {
      if (parsed) throw err;
      const refused = unreadableParams(err, 'body');
      throw refused !== err ? refused : unreadableBody(err, ctx.get('Content-Encoding'));
    }
  };
}
