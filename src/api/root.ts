import type { Middleware } from 'koa';
import { NAMESPACE_PATH } from '../domain/recordUrls';
import type { AppState } from '../http/types';

/** The browsable API reference, where a person opening the server's address lands. */
export const ROOT_REDIRECT = `${NAMESPACE_PATH}/doc?format=html`;

/**
 * `GET /` (outside the namespace): 302 to the browsable reference. Temporary, so browsers do not
 * cache it and the root stays free for something else later.
 */
export function rootRedirect(): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== '/' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.status = 302;
    ctx.redirect(ROOT_REDIRECT);
  };
}
