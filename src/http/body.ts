import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { CalendarError } from '../errors';
import type { AppState } from './types';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ACCEPTED_TYPES = ['json', 'urlencoded', 'multipart'];

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
    formidable: { maxFileSize: limitBytes, maxFieldsSize: limitBytes, maxFiles: 0, allowEmptyFiles: true },
    onError: (err) => {
      throw err;
    },
  }) as unknown as Middleware<AppState>;
  return async (ctx, next) => {
    if (BODY_METHODS.has(ctx.method) && ctx.request.length !== 0 && ctx.request.type && !ctx.is(ACCEPTED_TYPES)) {
      throw new CalendarError(415, 'rest_unsupported_media_type', `Unsupported request body type ${ctx.request.type}.`);
    }
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limitBytes) throw new CalendarError(413, 'rest_payload_too_large', 'The request body is too large.');
    await parser(ctx, next);
  };
}
