import Koa from 'koa';
import type { Config } from '../../config';
import type { ApiKeyStore } from '../storage/apiKeys';
import { authenticate } from '../http/authenticate';
import { crossOriginAccess, noSniff } from '../http/browsers';
import { httpCaching } from '../http/caching';
import { compression } from '../http/compression';
import { parseBody } from '../http/body';
import { errorBoundary } from '../http/errorBoundary';
import { requireHostHeader } from '../http/hostHeader';
import { negotiateLanguage } from '../http/language';
import { createRateLimits } from '../http/rateLimit';
import { requestId } from '../http/requestId';
import { buildRouter, routeFallback } from '../http/router';
import type { AppState, RouteSpec } from '../http/types';
import type { Logger } from '../lib/log';
import { healthRoutes, type HealthChecks } from '../api/health';
import { metricsEndpoint, requestMetrics } from '../http/requestMetrics';
import type { Metrics } from '../metrics/registry';
import { rootRedirect } from '../api/root';

export interface AppDependencies {
  config: Config;
  log: Logger;
  apiKeys: ApiKeyStore;
  routes: RouteSpec[];
  health: HealthChecks;
  /** Serves `GET /metrics` and records request latencies when given. */
  metrics?: Metrics;
}

/**
 * The HTTP application: CORS and `nosniff`, compression (of error envelopes too), one error
 * boundary, HTTP caching (validators, 304s, Cache-Control), then credentials and the
 * route table (a CORS preflight needs no key). Each route
 * checks access before it reads the body and the language, so a write without credentials is
 * 401 whatever it sends.
 */
export function createApp(deps: AppDependencies): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: false });
  app.silent = true;
  const router = buildRouter(deps.routes, [
    parseBody(deps.config.http.bodyLimitBytes, deps.config.http.bodyTimeoutMs),
    negotiateLanguage(deps.config.defaultLanguage),
  ]);
  app.use(requestId(deps.log));
  if (deps.metrics) app.use(requestMetrics(deps.metrics, router));
  app.use(crossOriginAccess(deps.config.http.corsOrigins));
  app.use(noSniff());
  app.use(compression());
  app.use(errorBoundary(deps.config.defaultLanguage));
  app.use(requireHostHeader());
  app.use(httpCaching(deps.config.http));
  app.use(healthRoutes(deps.health));
  app.use(rootRedirect());
  if (deps.metrics) app.use(metricsEndpoint(deps.metrics));
  app.use(routeFallback(router));
  const limits = createRateLimits(deps.config.rateLimit);
  app.use(authenticate(deps.apiKeys, limits));
  app.use(limits.middleware);
  app.use(router.routes());
  return app;
}
