import type { Config } from '../../config';
import type { AppContext } from './types';
import { NAMESPACE_ROOT } from './router';

/**
 * The REST root the request came through (with its language prefix), e.g.
 * `http://127.0.0.1:8080/fr/calendar/events/v1`.
 */
export function restRoot(ctx: AppContext, _config?: Config): string {
  const prefix = ctx.state.pathLanguage ? `/${ctx.state.pathLanguage}` : '';
  // Not ctx.origin: since Koa 3 that is the request's Origin header (null for most API calls).
  return `${ctx.protocol}://${ctx.host}${prefix}${NAMESPACE_ROOT}`;
}
