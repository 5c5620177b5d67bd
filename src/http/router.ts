import Router, { type RouterContext } from '@koa/router';
import type { Middleware } from 'koa';
import { LANGUAGES } from '../../config';
import { NAMESPACE_PATH } from '../domain/recordUrls';
import { MethodNotAllowedError, NotFoundError } from '../domain/errors';
import { inputOf } from './validate';
import type { AppState, RouteSpec } from './types';
import { requireAccess } from './authenticate';

/** How `Allow` lists a path's methods. */
const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The namespace root and its language-prefixed twins (CONTRACT part 1). */
export const ROOTS = ['', ...LANGUAGES.map((lang) => `/${lang}`)].map((prefix) => `${prefix}${NAMESPACE_PATH}`);

const DIGITS = /^\d+$/;

export const noRoute = (): NotFoundError =>
  new NotFoundError('rest_no_route', 'No route was found matching the URL and request method.');

/** The route table under each root: a request is matched against its own root's routes only. */
export interface ApiRouter {
  routes(): Middleware<AppState>;
  /** What the router of the path's root matches (none outside the roots). */
  match(path: string, method: string): ReturnType<Router<AppState>['match']> | null;
}

function rootRouter(root: string, routes: RouteSpec[], readRequest: Middleware<AppState>[]): Router<AppState> {
  // Paths are case-sensitive (CONTRACT part 9: a path that does not match is 404).
  const router = new Router<AppState>({ sensitive: true });
  // `/events/export` is not the event `export`: a layer whose `:id` is not a number stops there,
  // and the fallback answers as for a path without it (routeFallback).
  router.param('id', async (id, _ctx, next) => (DIGITS.test(id) ? next() : undefined));
  for (const route of routes) {
    const path = `${root}${route.path}`.replace(/\/$/, '') || '/';
    const input = inputOf(route.input, route.pathKeys);
    router.register(path, route.methods, [
      requireAccess(route.access),
      ...readRequest,
      (ctx) => route.handler(Object.assign(ctx, { input: input(ctx) })),
    ]);
  }
  return router;
}

/**
 * Registers every route of the table under every root, each behind its access check, then
 * `readRequest` (body parsing, language), then its validator: a write without credentials is
 * 401 whatever its body (CONTRACT part 6). One router per root: matching a request against the
 * four roots' routes at once tried four times the patterns.
 */
export function buildRouter(routes: RouteSpec[], readRequest: Middleware<AppState>[] = []): ApiRouter {
  const roots = ROOTS.map((root) => {
    const router = rootRouter(root, routes, readRequest);
    const routed = router.routes();
    // The router's middleware sets `params` and `router` on the context it is given.
    const dispatch: Middleware<AppState> = (ctx, next) => routed(ctx as RouterContext<AppState>, next);
    return { root, router, dispatch };
  });
  const rootOf = (path: string) => roots.find(({ root }) => path === root || path.startsWith(`${root}/`));
  return {
    routes: () => (ctx, next) => {
      const root = rootOf(ctx.path);
      return root ? root.dispatch(ctx, next) : next();
    },
    match: (path, method) => rootOf(path)?.router.match(path, method) ?? null,
  };
}

type Layer = NonNullable<ReturnType<ApiRouter['match']>>['path'][number];

/** Whether a layer matching `path` names it: an `:id` it has is a number. */
function namesPath(layer: Layer, path: string): boolean {
  const id = layer.params(path, layer.captures(path)).id;
  return id === undefined || DIGITS.test(id);
}

/**
 * After the router: for a known path, `OPTIONS` is 204 and any other method it lacks 405, both
 * with `Allow` (OPTIONS included); otherwise 404 `rest_no_route`. (A CORS preflight is answered
 * before, by crossOriginAccess.)
 */
export function routeFallback(router: ApiRouter): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404) return;
    const layers = (router.match(ctx.path, ctx.method)?.path ?? []).filter((layer) => namesPath(layer, ctx.path));
    const allowed = new Set(layers.flatMap((layer) => layer.methods));
    if (allowed.size === 0 || allowed.has(ctx.method)) throw noRoute();
    allowed.add('OPTIONS');
    // In one order whatever order the route table registers a path's methods in.
    const methods = ALLOW_ORDER.filter((method) => allowed.has(method));
    if (ctx.method !== 'OPTIONS') throw new MethodNotAllowedError(ctx.method, methods);
    ctx.set('Allow', methods.join(', '));
    ctx.status = 204;
  };
}
