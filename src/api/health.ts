import type { Middleware } from 'koa';
import type { AppState } from '../http/types';
import { PROBE_TIMEOUT_MS, withTimeout } from '../metrics/probe';

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
    // Together, each within the probe timeout: a probe that gives up after a second sees the 503.
    const [mongo, elasticsearch, sync] = await Promise.all([
      withTimeout(checks.mongo(), PROBE_TIMEOUT_MS).catch(() => false),
      withTimeout(checks.elasticsearch(), PROBE_TIMEOUT_MS).catch(() => false),
      checks.sync ? withTimeout(checks.sync(), PROBE_TIMEOUT_MS).catch(() => undefined) : undefined,
    ]);
    const ready = mongo && elasticsearch;
    ctx.status = ready ? 200 : 503;
    ctx.body = {
      status: ready ? 'ready' : 'unavailable',
      services: { mongo: mongo ? 'up' : 'down', elasticsearch: elasticsearch ? 'up' : 'down' },
      ...(sync ? { sync } : {}),
    };
  };
}
