import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PROBE_TIMEOUT_MS, withTimeout } from './probe';
import type { SyncReporter, SyncReport } from './syncReporter';
import { webhookMetrics, type WebhookQueueFigures, type WebhookReporter } from './webhookMetrics';

interface Backlog {
  pending: number;
  oldestPendingMs: number;
}

/** Where the scrape-time figures come from (the queue in MongoDB, the two dependencies). */
export interface MetricsSources {
  backlog(): Promise<Backlog>;
  mongo(): Promise<boolean>;
  elasticsearch(): Promise<boolean>;
  /** The webhook delivery queue's depth and oldest age. */
  webhookQueue?(): Promise<WebhookQueueFigures>;
}

/** One scrape reads the backlog once, however many gauges show it. */
const SNAPSHOT_TTL_MS = 250;

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800];

/**
 * A gauge with no labels that can be absent: prom-client writes an unlabelled gauge as 0 even
 * after `reset()`, and a backlog of 0 would read as "nothing waiting" while it is unknown.
 */
class OptionalGauge extends Gauge {
  known = true;

  override async get(): ReturnType<Gauge['get']> {
    const metric = await super.get();
    return this.known ? metric : { ...metric, values: [] };
  }
}

function memoised<T>(load: () => Promise<T>, ttlMs: number): () => Promise<T> {
  let cached: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!cached || Date.now() - cached.at > ttlMs) cached = { at: Date.now(), value: load() };
    return cached.value;
  };
}

/**
 * The Prometheus metrics of one API process (its own registry, so several apps in one test
 * process never share series). Request figures are recorded as they happen; the sync backlog
 * and dependency states are read at scrape time.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** What the sync worker (in this process) reports through. */
  readonly sync: SyncReporter;
  /** What the webhook dispatcher (in this process) reports through. */
  readonly webhooks: WebhookReporter;
  private sources: MetricsSources | undefined;

  constructor() {
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'calendar_http_request_duration_seconds',
      help: 'HTTP request latency by route pattern (the route table path, never the raw URL), method and status',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    const lag = new Histogram({
      name: 'calendar_sync_lag_seconds',
      help: 'Time from a write (its sync entry becoming dirty) to its index documents being written',
      labelNames: ['kind'],
      buckets: LAG_BUCKETS,
      registers,
    });
    const indexed = new Counter({
      name: 'calendar_sync_indexed_total',
      help: 'Sync entries indexed and checkpointed',
      labelNames: ['kind'],
      registers,
    });
    const failures = new Counter({
      name: 'calendar_sync_bulk_failures_total',
      help: 'Sync entries whose bulk indexing failed (they are retried with backoff)',
      labelNames: ['kind'],
      registers,
    });
    this.sync = {
      indexed(entries: readonly SyncReport[]) {
        const now = Date.now();
        for (const entry of entries) {
          indexed.inc({ kind: entry.kind });
          if (entry.dirtyAt) lag.observe({ kind: entry.kind }, Math.max(0, now - entry.dirtyAt.getTime()) / 1000);
        }
      },
      failed(entries: readonly SyncReport[]) {
        for (const entry of entries) failures.inc({ kind: entry.kind });
      },
    };
    this.scrapeTimeGauges(registers);
    this.webhooks = webhookMetrics(
      registers,
      memoised(async () => {
        const read = this.sources?.webhookQueue?.();
        return read && withTimeout(read, PROBE_TIMEOUT_MS).catch(() => undefined);
      }, SNAPSHOT_TTL_MS),
    );
  }

  /**
   * Connects the scrape-time gauges to their sources (the API's services) and adds the process
   * metrics (memory, event loop, GC): only a process that serves `/metrics` pays for them.
   */
  observe(sources: MetricsSources): this {
    if (!this.sources) collectDefaultMetrics({ register: this.registry });
    this.sources = sources;
    return this;
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private scrapeTimeGauges(registers: Registry[]): void {
    const backlog = memoised(async () => {
      if (!this.sources) return undefined;
      return withTimeout(this.sources.backlog(), PROBE_TIMEOUT_MS).catch(() => undefined);
    }, SNAPSHOT_TTL_MS);
    const up = (which: 'mongo' | 'elasticsearch') =>
      memoised(async () => {
        if (!this.sources) return undefined;
        return withTimeout(this.sources[which](), PROBE_TIMEOUT_MS).catch(() => false);
      }, SNAPSHOT_TTL_MS);
    const probes = { mongo: up('mongo'), elasticsearch: up('elasticsearch') };

    const backlogGauge = (name: string, help: string, value: (figures: Backlog) => number) =>
      new OptionalGauge({
        name,
        help,
        registers,
        async collect() {
          const figures = await backlog();
          (this as OptionalGauge).known = figures !== undefined;
          if (figures) this.set(value(figures));
        },
      });
    backlogGauge(
      'calendar_sync_backlog_entries',
      'Records waiting to be (re)indexed; absent while MongoDB cannot be read',
      (figures) => figures.pending,
    );
    backlogGauge(
      'calendar_sync_oldest_pending_seconds',
      'Age of the oldest record waiting to be indexed (0 when none); absent while MongoDB cannot be read',
      (figures) => figures.oldestPendingMs / 1000,
    );
    new Gauge({
      name: 'calendar_dependency_up',
      help: 'Whether a backing service answers (1) or not (0), probed at scrape time',
      labelNames: ['dependency'],
      registers,
      async collect() {
        const [mongo, elasticsearch] = await Promise.all([probes.mongo(), probes.elasticsearch()]);
        if (mongo === undefined || elasticsearch === undefined) return;
        this.set({ dependency: 'mongo' }, mongo ? 1 : 0);
        this.set({ dependency: 'elasticsearch' }, elasticsearch ? 1 : 0);
      },
    });
  }
}

export function createMetrics(): Metrics {
  return new Metrics();
}
