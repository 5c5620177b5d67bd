import Koa from 'koa';
import type { Config } from '../config';
import type { ApiKeyStore } from './auth/apiKeys';
import { authenticate } from './http/authenticate';
import { parseBody } from './http/body';
import { errorBoundary } from './http/errorBoundary';
import { negotiateLanguage } from './http/language';
import { requestId } from './http/requestId';
import { buildRouter, routeFallback } from './http/router';
import type { AppState, RouteSpec } from './http/types';
import type { Logger } from './log';
import { healthRoutes, type HealthChecks } from './routes/health';

export interface AppDependencies {
  config: Config;
  log: Logger;
  apiKeys: ApiKeyStore;
  routes: RouteSpec[];
  health: HealthChecks;
}

/** The HTTP application: one error boundary, then language, body, credentials and the route table. */
export function createApp(deps: AppDependencies): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: false });
  app.silent = true;
  const router = buildRouter(deps.routes);
  app.use(requestId(deps.log));
  app.use(errorBoundary(deps.config.defaultLanguage));
  app.use(healthRoutes(deps.health));
  app.use(routeFallback(router));
  app.use(parseBody(deps.config.http.bodyLimitBytes));
  app.use(negotiateLanguage(deps.config.defaultLanguage));
  app.use(authenticate(deps.apiKeys));
  app.use(router.routes());
  return app;
}
