import type { Middleware } from 'koa';
import { pathLanguageOf } from './language';
import type { ApiRouter } from './router';
import type { AppContext, AppState } from './types';
import type { Metrics } from '../metrics/registry';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const OUTSIDE_NAMESPACE = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The route label: the route table's pattern (`/calendar/events/v1/events/:id`, whatever the
 * language prefix), never the raw URL, so that the number of series stays bounded.
 */
export function routeLabel(ctx: AppContext, router: Pick<ApiRouter, 'match'>): string {
  let matched: unknown = ctx._matchedRoute;
  // Refused before routing (401, 429): the route the request was for, when there is one.
  if (typeof matched !== 'string') {
    const match = router.match(ctx.path, ctx.method);
    if (match?.route) matched = match.pathAndMethod.at(-1)?.path;
  }
  if (typeof matched === 'string') {
    const prefix = pathLanguageOf(matched);
    return prefix ? matched.slice(prefix.length + 1) : matched;
  }
  return OUTSIDE_NAMESPACE.has(ctx.path) ? ctx.path : 'unmatched';
}

/** Records every request's latency by method, route pattern and final status. */
export function requestMetrics(metrics: Metrics, router: Pick<ApiRouter, 'match'>): Middleware<AppState> {
  return async (ctx, next) => {
    const stop = metrics.httpDuration.startTimer();
    try {
      await next();
    } finally {
      stop({
        method: METHODS.has(ctx.method) ? ctx.method : 'OTHER',
        route: routeLabel(ctx, router),
        status: String(ctx.status),
      });
    }
  };
}

/**
 * `GET /metrics` (outside the namespace, like /healthz): Prometheus text format. No key: it holds
 * only aggregate figures (route patterns, counts, latencies, backlog, memory), never record
 * content, IDs or keys; restrict it at the network edge like the health routes.
 */
export function metricsEndpoint(metrics: Metrics): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== '/metrics' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const { contentType, body } = await metrics.render();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = body;
  };
}
