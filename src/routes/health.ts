import type { Middleware } from 'koa';
import type { AppState } from '../http/types';

export interface HealthChecks {
  mongo(): Promise<boolean>;
  elasticsearch(): Promise<boolean>;
  /** Sync backlog figures, when a worker reports them. */
  sync?(): Promise<Record<string, unknown>>;
}

/** `GET /healthz`: the process is alive. `GET /readyz`: both backing services answer. */
export function healthRoutes(checks: HealthChecks): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path !== '/readyz') return next();
    const [mongo, elasticsearch] = await Promise.all([checks.mongo(), checks.elasticsearch()]);
    const sync = checks.sync ? await checks.sync().catch(() => undefined) : undefined;
    const ready = mongo && elasticsearch;
    ctx.status = ready ? 200 : 503;
    ctx.body = {
      status: ready ? 'ready' : 'unavailable',
      services: { mongo: mongo ? 'up' : 'down', elasticsearch: elasticsearch ? 'up' : 'down' },
      ...(sync ? { sync } : {}),
    };
  };
}
