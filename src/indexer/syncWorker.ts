import { randomBytes } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import { hostname } from 'node:os';
import type { SyncReporter } from '../metrics/syncReporter';
import type { Services } from '../services/container';
import type { ClaimedEntry } from '../storage/syncQueue';
import { prepareGroup, seriesParts, type PreparedGroup } from './batchDocuments';
import { syncBulkIndexer, type BulkIndexer, type BulkOperation, type BulkOutcome } from './bulkIndexer';
import { createBackgroundSearchClient } from '../search/client';
import { deleteStaleEventDocuments } from '../search/staleOccurrences';
import { rollSeriesWindows, WINDOW_CHECK_MS } from './seriesWindow';
import { ensureSearchIndexes } from '../search/ensureIndexes';
import { activeReindexTargets, withReindexTargets } from './reindexTargets';
import { RetryBackoff, retryDelayMs } from '../lib/retryBackoff';
import { withTimeout } from '../metrics/probe';
import type { RecordKind } from '../domain/kinds';
import { WebhookWork } from './webhooks/webhookWork';

export interface SyncWorkerOptions {
  /** Lease owner name; unique per worker. */
  owner?: string;
  batchSize?: number;
  leaseMs?: number;
  pollMs?: number;
  /** How often backlog size and oldest pending age are logged. */
  backlogLogMs?: number;
  /** Where progress is reported (default: the process's metrics). */
  reporter?: SyncReporter;
  /**
   * Makes the search indexes ready before the first claim, retried until it succeeds (default:
   * creates the missing ones; the API and worker processes also check they belong to the database).
   */
  prepareIndexes?: (services: Services, signal: AbortSignal) => Promise<unknown>;
  /** Match webhook subscriptions after each batch and deliver their queue (default true). */
  webhooks?: boolean;
}

/**
 * How long `stop()` lets the batches in flight finish before aborting their Elasticsearch
 * requests (their entries go back to the queue): a hung Elasticsearch would otherwise hold a
 * stop for the client's timeouts and retries, past docker's stop grace period.
 */
export const STOP_GRACE_MS = 5_000;

/**
 * Keeps Elasticsearch in step with MongoDB from the durable sync queue: claims leased batches,
 * reads the records after claiming, indexes them (every language index) at the claimed version
 * with external versioning, marks dependent records dirty, and completes entries only after the
 * bulk flush that carried them succeeded. Several workers may run at once.
 */
/** How often a worker drops changes past their retention from the change log. */
const CHANGES_PRUNE_EVERY_MS = 60_000;
/** Documents sent this long before the refresh interval's end are searchable (a refresh's own time). */
const SEARCHABLE_MARGIN_MS = 2_000;

export class SyncWorker {
  readonly owner: string;
  /** Bulk requests may take longer than the API's fail-fast timeout: the worker's own client. */
  private readonly client: Client;
  private indexer: BulkIndexer;
  /** Aborts the Elasticsearch requests of this start's batches (see `stop`). */
  private aborter = new AbortController();
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly backlogLogMs: number;
  private readonly reporter: SyncReporter;
  private readonly prepareIndexes: NonNullable<SyncWorkerOptions['prepareIndexes']>;
  /** Batches in flight at once. */
  private readonly maxBatches: number;
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeRequested = false;
  private wake: (() => void) | null = null;
  private backlogTimer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private windowTimer: NodeJS.Timeout | null = null;
  private indexesReady = false;
  private readonly backoff = new RetryBackoff<string>();
  private readonly onDirty = () => this.requestWake();
  private stopWatching: (() => Promise<void>) | null = null;
  private readonly webhooks: WebhookWork | null;

  constructor(
    private readonly services: Services,
    options: SyncWorkerOptions = {},
  ) {
    const { sync } = services.config;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.batchSize = options.batchSize ?? sync.batchSize;
    this.leaseMs = options.leaseMs ?? sync.leaseMs;
    this.pollMs = options.pollMs ?? sync.pollMs;
    this.backlogLogMs = options.backlogLogMs ?? 30_000;
    this.reporter = options.reporter ?? services.metrics.sync;
    this.prepareIndexes = options.prepareIndexes ?? ensureSearchIndexes;
    this.maxBatches = Math.max(1, sync.concurrency);
    this.client = createBackgroundSearchClient(services.config.elasticsearch.url as string);
    this.indexer = this.newIndexer();
    this.webhooks = options.webhooks === false ? null : new WebhookWork(services, this.owner);
  }

  private newIndexer(): BulkIndexer {
    return syncBulkIndexer(this.client, this.services.config, this.services.log, this.aborter.signal);
  }

  start(): this {
    if (this.running) return this;
    if (this.loop) throw new Error('the sync worker is stopping: start it again once stop() has resolved');
    this.running = true;
    if (this.aborter.signal.aborted) {
      this.aborter = new AbortController();
      this.indexer = this.newIndexer();
    }
    this.services.sync.on('dirty', this.onDirty);
    // Other processes' writes (the API's, beside a standalone worker) wake it at once where the
    // server has change streams; elsewhere it finds them by polling every `pollMs`.
    this.stopWatching = this.services.sync.watchDirty(this.onDirty, (err) =>
      this.services.log.info({ reason: err.message, pollMs: this.pollMs }, 'sync: no change stream, polling'),
    );
    this.backlogTimer = setInterval(() => void this.logBacklog(), this.backlogLogMs).unref();
    this.pruneTimer = setInterval(() => void this.pruneChanges(), CHANGES_PRUNE_EVERY_MS).unref();
    this.windowTimer = setInterval(() => void this.rollWindows(), WINDOW_CHECK_MS).unref();
    void this.rollWindows();
    this.loop = this.run();
    this.webhooks?.start();
    return this;
  }

  /**
   * Finishes the batches in flight (flushed, completed or released), then stops. Batches still
   * waiting for Elasticsearch after `graceMs` have their requests aborted: their entries are
   * released for the next worker.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.services.sync.off('dirty', this.onDirty);
    await this.stopWatching?.();
    this.stopWatching = null;
    if (this.backlogTimer) clearInterval(this.backlogTimer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    if (this.windowTimer) clearInterval(this.windowTimer);
    this.requestWake();
    const loop = this.loop;
    const finished =
      !loop ||
      (await withTimeout(loop, graceMs).then(
        () => true,
        () => false,
      ));
    if (!finished) {
      this.services.log.warn({ graceMs }, 'sync: Elasticsearch did not answer in time; aborting the batches in flight');
      this.aborter.abort();
    }
    await loop;
    await this.webhooks?.stop();
    await this.indexer.close().catch(() => undefined);
    this.loop = null;
  }

  /** Stops and releases the worker's connections (a stopped worker may be started again before). */
  async close(graceMs = STOP_GRACE_MS): Promise<void> {
    await this.stop(graceMs);
    await this.client.close();
  }

  /** Claims and processes one batch; returns how many entries it claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim();
    if (claimed.length > 0) await this.process(claimed);
    return claimed.length;
  }

  /** The next batch of pending entries, leased to this worker (the indexes created first). */
  private async claim(): Promise<ClaimedEntry[]> {
    if (!this.indexesReady) {
      await this.prepareIndexes(this.services, this.aborter.signal);
      this.indexesReady = true;
    }
    return this.services.sync.claim(this.owner, this.batchSize, this.leaseMs);
  }

  /** Queues every series once a day, so that their index windows move (seriesWindow.ts). */
  private async rollWindows(): Promise<void> {
    try {
      const queued = await rollSeriesWindows(this.services);
      if (queued > 0) this.services.log.info({ series: queued }, 'sync: series windows moved to a new day');
    } catch (err) {
      this.services.log.warn({ err }, 'sync: could not move the series windows; retrying later');
    }
  }

  /**
   * Stale documents of the events indexed (series' occurrences): their entries fail if this does.
   * Indexes are refreshed first only when the documents to find may not be searchable yet: those
   * of an index being rebuilt (it refreshes only once loaded), or an event sent within the last
   * refresh interval and a margin.
   */
  private async removeStaleDocuments(
    prepared: PreparedGroup[],
    results: Map<string, BulkOutcome[]>,
    rebuilding: boolean,
  ): Promise<void> {
    const stale = prepared.flatMap((group) => group.stale ?? []).filter((s) => results.get(s.key)?.every((r) => r.ok));
    const searchableSince = Date.now() - this.services.config.elasticsearch.refreshIntervalMs - SEARCHABLE_MARGIN_MS;
    const refreshFirst = rebuilding || stale.some((s) => (s.attemptedAt?.getTime() ?? 0) > searchableSince);
    try {
      await deleteStaleEventDocuments(this.client, this.services.config, stale, {
        refreshFirst,
        signal: this.aborter.signal,
      });
    } catch (err) {
      const error = (err as Error).message;
      for (const { key } of stale) results.set(key, [{ ok: false, status: 0, error }]);
    }
  }

  /**
   * Indexes claimed entries and checkpoints them: complete on success, release with backoff. The
   * series past SERIES_PER_BATCH are given back at once, for the next batches (memory).
   */
  async process(batch: ClaimedEntry[]): Promise<void> {
    const started = Date.now();
    const eventIds = batch.flatMap((entry) => (entry.kind === 'event' ? [entry.id] : []));
    const events = eventIds.length > 0 ? await this.services.stores.events.getMany(eventIds) : new Map();
    const [claimed = [], ...later] = seriesParts(batch, events);
    if (later.length > 0) await this.services.sync.release(this.owner, later.flat(), 0);
    const groups = new Map<RecordKind, ClaimedEntry[]>();
    for (const entry of claimed) groups.set(entry.kind, [...(groups.get(entry.kind) ?? []), entry]);
    const prepared = await Promise.all(
      [...groups].map(([kind, entries]) =>
        prepareGroup(this.services, this.client, kind, entries, {
          signal: this.aborter.signal,
          ...(kind === 'event' && { records: events }),
        }).catch((err: unknown) => {
          this.services.log.error(
            { err, kind, ids: entries.map((e) => e.id) },
            'sync: could not prepare index documents',
          );
          return { entries, operations: new Map<string, BulkOperation[]>() } satisfies PreparedGroup;
        }),
      ),
    );
    // Indexes being rebuilt (npm run reindex) get every write too; read per batch, never cached.
    const rebuilding = await activeReindexTargets(this.services.db);
    const outcomes = new Map<string, Promise<BulkOutcome[]>>();
    for (const group of prepared) {
      for (const [key, operations] of group.operations)
        outcomes.set(key, Promise.all(withReindexTargets(operations, rebuilding).map((op) => this.indexer.push(op))));
    }
    const prepared_ms = Date.now() - started;
    this.indexer.sendNow();
    const results = new Map<string, BulkOutcome[]>();
    for (const [key, outcome] of outcomes) results.set(key, await outcome);
    const indexed_ms = Date.now() - started;
    await this.removeStaleDocuments(prepared, results, rebuilding.size > 0);
    const flushed_ms = Date.now() - started;
    const done: ClaimedEntry[] = [];
    const failed: ClaimedEntry[] = [];
    for (const entry of claimed) {
      const outcome = results.get(entry.key);
      if (outcome && outcome.every((r) => r.ok)) done.push(entry);
      else {
        failed.push(entry);
        const errors = outcome?.filter((r) => !r.ok).map((r) => r.error);
        if (errors?.length) this.services.log.warn({ key: entry.key, errors }, 'sync: indexing failed, will retry');
      }
    }
    // Webhook messages are queued before the entries complete: a crash in between evaluates them again.
    if (done.length > 0 && this.webhooks) {
      await this.webhooks.afterIndexed(done).catch((err: unknown) => {
        this.services.log.warn({ err }, 'webhooks: matches not evaluated; the batch will be indexed again');
        failed.push(...done.splice(0));
      });
    }
    if (done.length > 0) {
      await this.services.sync.complete(this.owner, done);
      for (const entry of done) this.backoff.succeeded(entry.key);
      this.reporter.indexed(done);
    }
    if (failed.length > 0) this.reporter.failed(failed);
    await this.releaseWithBackoff(failed);
    this.services.log.debug(
      {
        entries: claimed.length,
        kinds: Object.fromEntries([...groups].map(([kind, entries]) => [kind, entries.length])),
        failed: failed.length,
        prepared_ms,
        indexed_ms,
        flushed_ms,
        total_ms: Date.now() - started,
      },
      'sync: batch done',
    );
  }

  private async releaseWithBackoff(entries: ClaimedEntry[]): Promise<void> {
    const byDelay = new Map<number, ClaimedEntry[]>();
    for (const entry of entries) {
      const delay = this.backoff.failed(entry.key);
      byDelay.set(delay, [...(byDelay.get(delay) ?? []), entry]);
    }
    await Promise.all([...byDelay].map(([delay, group]) => this.services.sync.release(this.owner, group, delay)));
  }

  private requestWake(): void {
    this.wakeRequested = true;
    this.wake?.();
  }

  /** Waits `ms`, or less when woken: by new work (`onDirty`) or, always, by `stop()`. */
  private async idle(ms: number, onDirty = true): Promise<void> {
    if (onDirty && this.wakeRequested) return;
    let wake: (() => void) | null = null;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        if (!onDirty && this.running) return;
        clearTimeout(timer);
        resolve();
      };
      this.wake = wake;
    });
    if (this.wake === wake) this.wake = null;
  }

  /**
   * Claims batches while there is work, keeping up to `maxBatches` in flight (the next batch is
   * prepared while the previous one is being indexed); idles until woken or `pollMs` otherwise.
   */
  private async run(): Promise<void> {
    let errorsInARow = 0;
    const inFlight = new Set<Promise<void>>();
    while (this.running) {
      if (inFlight.size >= this.maxBatches) {
        await Promise.race(inFlight);
        continue;
      }
      this.wakeRequested = false;
      try {
        const claimed = await this.claim();
        errorsInARow = 0;
        if (claimed.length > 0) {
          const batch: Promise<void> = this.process(claimed)
            .catch((err: unknown) => this.services.log.error({ err }, 'sync: batch failed'))
            .finally(() => inFlight.delete(batch));
          inFlight.add(batch);
        } else if (inFlight.size > 0) {
          await Promise.race([...inFlight, this.idle(this.pollMs)]);
        } else {
          await this.idle(this.pollMs);
        }
      } catch (err) {
        if (!this.running) break; // stopped mid-claim: an aborted request is no failure
        errorsInARow++;
        this.services.log.error({ err }, 'sync: could not claim work');
        await this.idle(retryDelayMs(errorsInARow + 1), false);
      }
    }
    await Promise.all(inFlight);
  }

  /** Drops the change log's entries older than CHANGES_RETENTION (several workers may: each delete is idempotent). */
  async pruneChanges(now = new Date()): Promise<number> {
    try {
      const before = new Date(now.getTime() - this.services.config.integration.changesRetentionMs);
      return await this.services.sync.changes.prune(before);
    } catch (err) {
      this.services.log.warn({ err }, 'sync: could not prune the change log');
      return 0;
    }
  }

  private async logBacklog(): Promise<void> {
    try {
      const backlog = await this.services.sync.backlog();
      const level = backlog.oldestPendingMs > 10_000 ? 'warn' : 'info';
      this.services.log[level]({ owner: this.owner, ...backlog }, 'sync backlog');
    } catch (err) {
      this.services.log.warn({ err }, 'sync: could not read the backlog');
    }
  }
}

/** Starts a sync worker over `services` (in-process with the API, or alone in `npm run worker`). */
export function startSyncWorker(services: Services, options?: SyncWorkerOptions): SyncWorker {
  return new SyncWorker(services, options).start();
}
