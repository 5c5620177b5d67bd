import type { Middleware } from 'koa';
import type { AppState } from '../http/types';
import { PROBE_TIMEOUT_MS, withTimeout } from '../metrics/probe';

export interface HealthChecks {
  mongo(): Promise<boolean>;
  elasticsearch(): Promise<boolean>;
  /** What refuses writes to the search indexes (see src/search/writeBlocks.ts); none when they go through. */
  searchWriteBlocks?(): Promise<string[]>;
  /** Sync backlog figures, when a worker reports them. */
  sync?(): Promise<Record<string, unknown>>;
}

/**
 * `GET /healthz`: the process is alive. `GET /readyz`: both backing services answer (503 naming
 * the one that does not). An Elasticsearch that refuses writes (a write block, the disk
 * flood-stage watermark) is `read-only`, with its blocks listed, and `status: degraded`, still
 * 200: lists are served and writes are kept in the outbox until the blocks go, so taking every
 * API out of rotation would turn a stale index into an outage.
 */
export function healthRoutes(checks: HealthChecks): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path !== '/readyz') return next();
    // Together, each within the probe timeout: a probe that gives up after a second sees the 503.
    const [mongo, elasticsearch, blocks, sync] = await Promise.all([
      withTimeout(checks.mongo(), PROBE_TIMEOUT_MS).catch(() => false),
      withTimeout(checks.elasticsearch(), PROBE_TIMEOUT_MS).catch(() => false),
      // Unknown (no answer in time) is not reported as blocked.
      checks.searchWriteBlocks ? withTimeout(checks.searchWriteBlocks(), PROBE_TIMEOUT_MS).catch(() => []) : [],
      checks.sync ? withTimeout(checks.sync(), PROBE_TIMEOUT_MS).catch(() => undefined) : undefined,
    ]);
    const ready = mongo && elasticsearch;
    const readOnly = elasticsearch && blocks.length > 0;
    ctx.status = ready ? 200 : 503;
    ctx.body = {
      status: ready ? (readOnly ? 'degraded' : 'ready') : 'unavailable',
      services: {
        mongo: mongo ? 'up' : 'down',
        elasticsearch: elasticsearch ? (readOnly ? 'read-only' : 'up') : 'down',
      },
      ...(readOnly ? { blocks } : {}),
      ...(sync ? { sync } : {}),
    };
  };
}
