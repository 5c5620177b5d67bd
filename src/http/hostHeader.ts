import type { Middleware } from 'koa';
import { BadRequestError } from '../domain/errors';

/**
 * An HTTP/1.1 request without a Host header is malformed (RFC 9112 3.2): 400 in the error
 * envelope. The server lets such requests through (`requireHostHeader: false`) for this.
 */
export function requireHostHeader(): Middleware {
  return async (ctx, next) => {
    if (ctx.req.httpVersion === '1.1' && ctx.req.headers.host === undefined)
      throw new BadRequestError('rest_bad_request', 'An HTTP/1.1 request needs a Host header.');
    await next();
  };
}
