import { randomBytes } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import { hostname } from 'node:os';
import { LANGUAGES, type Language } from '../../config';
import { viewOf } from '../routes/views';
import type { Services } from '../services';
import type { RecordStore, StoredRecord } from '../storage/recordStore';
import type { ClaimedEntry, SyncKind } from '../storage/syncQueue';
import { withBatchCache } from './batchCache';
import { createBackgroundSearchClient } from './client';
import { BulkIndexer, type BulkOperation, type BulkOutcome } from './bulkIndexer';
import { toIndexDocument, type IndexDocument } from './documents';
import { ensureSearchIndexes } from './ensureIndexes';
import { aliasesOfKind, aliasName } from './indexNames';
import { eventsLinking, loadRelated, type LinkedKind } from './relatedData';

export interface SyncWorkerOptions {
  /** Lease owner name; unique per worker. */
  owner?: string;
  batchSize?: number;
  leaseMs?: number;
  pollMs?: number;
  /** How often backlog size and oldest pending age are logged. */
  backlogLogMs?: number;
}

/** What propagation needs from an index document that was there before this batch. */
type PreviousDoc = Pick<IndexDocument, 'deps'> &
  Partial<Record<'venue_ids' | 'organizer_ids' | 'category_ids' | 'tag_ids', number[]>>;

interface PreparedGroup {
  entries: ClaimedEntry[];
  operations: Map<string, BulkOperation[]>;
}

const MAX_RETRY_MS = 30_000;
const BASE_RETRY_MS = 500;
const PREVIOUS_FIELDS = ['deps', 'venue_ids', 'organizer_ids', 'category_ids', 'tag_ids'];
const EVENT_LINKS: [LinkedKind, keyof PreviousDoc][] = [
  ['venue', 'venue_ids'],
  ['organizer', 'organizer_ids'],
  ['category', 'category_ids'],
  ['tag', 'tag_ids'],
];

/**
 * Keeps Elasticsearch in step with MongoDB from the durable sync queue: claims leased batches,
 * reads the records after claiming, indexes them (every language index) at the claimed version
 * with external versioning, marks dependent records dirty, and completes entries only after the
 * bulk flush that carried them succeeded. Several workers may run at once.
 */
export class SyncWorker {
  readonly owner: string;
  /** Bulk requests may take longer than the API's fail-fast timeout: the worker's own client. */
  private readonly client: Client;
  private readonly indexer: BulkIndexer;
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly backlogLogMs: number;
  /** Batches in flight at once. */
  private readonly maxBatches: number;
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeRequested = false;
  private wake: (() => void) | null = null;
  private backlogTimer: NodeJS.Timeout | null = null;
  private indexesReady = false;
  private readonly failures = new Map<string, number>();
  private readonly onDirty = () => this.requestWake();

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
    this.maxBatches = Math.max(1, sync.concurrency);
    this.client = createBackgroundSearchClient(services.config.elasticsearch.url as string);
    this.indexer = new BulkIndexer(this.client, {
      flushBytes: sync.flushBytes,
      flushMs: sync.flushMs,
      concurrency: sync.concurrency,
      log: services.log,
    });
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): this {
    if (this.running) return this;
    this.running = true;
    this.services.sync.on('dirty', this.onDirty);
    this.backlogTimer = setInterval(() => void this.logBacklog(), this.backlogLogMs).unref();
    this.loop = this.run();
    return this;
  }

  /** Finishes the batch in flight (flushed, completed or released), then stops. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.services.sync.off('dirty', this.onDirty);
    if (this.backlogTimer) clearInterval(this.backlogTimer);
    this.requestWake();
    await this.loop;
    await this.indexer.close();
    this.loop = null;
  }

  /** Stops and releases the worker's connections (a stopped worker may be started again before). */
  async close(): Promise<void> {
    await this.stop();
    await this.client.close();
  }

  /** Claims and processes one batch; returns how many entries it claimed. */
  async runOnce(): Promise<number> {
    if (!this.indexesReady) {
      await ensureSearchIndexes(this.services);
      this.indexesReady = true;
    }
    const claimed = await this.services.sync.claim(this.owner, this.batchSize, this.leaseMs);
    if (claimed.length > 0) await this.process(claimed);
    return claimed.length;
  }

  /** Indexes claimed entries and checkpoints them: complete on success, release with backoff. */
  async process(claimed: ClaimedEntry[]): Promise<void> {
    const started = Date.now();
    const groups = new Map<SyncKind, ClaimedEntry[]>();
    for (const entry of claimed) groups.set(entry.kind, [...(groups.get(entry.kind) ?? []), entry]);
    const prepared = await Promise.all(
      [...groups].map(([kind, entries]) =>
        this.prepare(kind, entries).catch((err: unknown) => {
          this.services.log.error(
            { err, kind, ids: entries.map((e) => e.id) },
            'sync: could not prepare index documents',
          );
          return { entries, operations: new Map<string, BulkOperation[]>() } satisfies PreparedGroup;
        }),
      ),
    );
    const outcomes = new Map<string, Promise<BulkOutcome[]>>();
    for (const group of prepared) {
      for (const [key, operations] of group.operations)
        outcomes.set(key, Promise.all(operations.map((op) => this.indexer.push(op))));
    }
    const prepared_ms = Date.now() - started;
    this.indexer.sendNow();
    const results = new Map<string, BulkOutcome[]>();
    for (const [key, outcome] of outcomes) results.set(key, await outcome);
    if (process.env.SYNC_REFRESH && claimed.length < this.batchSize) await this.refresh(groups.keys());
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
    if (done.length > 0) {
      await this.services.sync.complete(this.owner, done);
      for (const entry of done) this.failures.delete(entry.key);
    }
    await this.releaseWithBackoff(failed);
    this.services.log.debug(
      { entries: claimed.length, failed: failed.length, prepared_ms, flushed_ms, total_ms: Date.now() - started },
      'sync: batch done',
    );
  }

  /**
   * Live changes (a batch smaller than the batch size) are made searchable at once rather than
   * at the next periodic refresh; a backfill of full batches leaves refreshing to the interval.
   */
  private async refresh(kinds: Iterable<SyncKind>): Promise<void> {
    const index = [...kinds].flatMap((kind) => aliasesOfKind(this.services.config, kind));
    await this.client.indices.refresh({ index }).catch((err: unknown) => this.services.log.warn({ err }, 'sync: refresh failed'));
  }

  private async releaseWithBackoff(entries: ClaimedEntry[]): Promise<void> {
    const byDelay = new Map<number, ClaimedEntry[]>();
    for (const entry of entries) {
      const attempts = (this.failures.get(entry.key) ?? 0) + 1;
      this.failures.set(entry.key, attempts);
      const delay = Math.min(MAX_RETRY_MS, BASE_RETRY_MS * 2 ** (attempts - 1));
      byDelay.set(delay, [...(byDelay.get(delay) ?? []), entry]);
    }
    await Promise.all([...byDelay].map(([delay, group]) => this.services.sync.release(this.owner, group, delay)));
  }

  private storeOf(kind: SyncKind): RecordStore<any> {
    const { stores } = this.services;
    return {
      event: stores.events,
      venue: stores.venues,
      organizer: stores.organizers,
      category: stores.categories,
      tag: stores.tags,
    }[kind];
  }

  /** Reads the records (after claiming, so never older than the claimed version) and maps them. */
  private async prepare(kind: SyncKind, entries: ClaimedEntry[]): Promise<PreparedGroup> {
    const ids = entries.map((e) => e.id);
    const services = withBatchCache(this.services);
    const [records, previous] = await Promise.all([this.storeOf(kind).getMany(ids), this.previousDocs(kind, ids)]);
    const present = ids.flatMap((id) => (records.has(id) ? [records.get(id) as StoredRecord<any>] : []));
    const related = await loadRelated(services, kind, present);
    const current = new Map<Language, Map<number, IndexDocument>>();
    await Promise.all(
      LANGUAGES.map(async (lang) => {
        const apiRecords = present.length > 0 ? await viewOf(kind)(services, present, lang) : [];
        const byId = new Map(apiRecords.map((record) => [record.id as number, record]));
        const docs = new Map<number, IndexDocument>();
        for (const record of present) {
          const apiRecord = byId.get(record.id);
          if (apiRecord) docs.set(record.id, toIndexDocument(kind, record, lang, apiRecord, related));
        }
        current.set(lang, docs);
      }),
    );
    // Dependents are marked before indexing: a crash after indexing would hide the change on retry.
    await this.propagate(kind, ids, previous, current);
    const operations = new Map<string, BulkOperation[]>();
    for (const entry of entries) {
      const exists = records.has(entry.id);
      const ops: BulkOperation[] = [];
      for (const lang of LANGUAGES) {
        const index = aliasName(this.services.config, kind, lang);
        const document = current.get(lang)?.get(entry.id);
        if (document) ops.push({ action: 'index', index, id: String(entry.id), version: entry.version, document });
        else if (!exists) ops.push({ action: 'delete', index, id: String(entry.id), version: entry.version });
      }
      // A record the view could not present stays pending (released) rather than half-indexed.
      if (ops.length === LANGUAGES.length) operations.set(entry.key, ops);
    }
    return { entries, operations };
  }

  /** The index documents as they were before this batch, in every language: one request. */
  private async previousDocs(kind: SyncKind, ids: number[]): Promise<Map<Language, Map<number, PreviousDoc>>> {
    const previous = new Map<Language, Map<number, PreviousDoc>>(LANGUAGES.map((lang) => [lang, new Map()]));
    const langOfIndex = new Map<string, Language>();
    const docs = LANGUAGES.flatMap((lang) => {
      const index = aliasName(this.services.config, kind, lang);
      langOfIndex.set(index, lang);
      return ids.map((id) => ({ _index: index, _id: String(id) }));
    });
    const response = await this.client.mget<PreviousDoc>({ docs, _source_includes: PREVIOUS_FIELDS });
    response.docs.forEach((doc, i) => {
      const lang = langOfIndex.get(docs[i]!._index) as Language;
      if ('found' in doc && doc.found && doc._source) previous.get(lang)?.set(Number(doc._id), doc._source);
    });
    return previous;
  }

  /** Marks dirty the records whose index documents depend on the changed ones. */
  private async propagate(
    kind: SyncKind,
    ids: number[],
    previous: Map<Language, Map<number, PreviousDoc>>,
    current: Map<Language, Map<number, IndexDocument>>,
  ): Promise<void> {
    const changed = ids.filter((id) =>
      LANGUAGES.some((lang) => previous.get(lang)?.get(id)?.deps !== current.get(lang)?.get(id)?.deps),
    );
    if (changed.length === 0) return;
    const { sync } = this.services;
    if (kind !== 'event') {
      await sync.markDirty('event', await eventsLinking(this.services, kind as LinkedKind, changed));
      return;
    }
    for (const [linkedKind, field] of EVENT_LINKS) {
      const linked = new Set<number>();
      for (const id of changed) {
        for (const lang of LANGUAGES) {
          for (const doc of [previous.get(lang)?.get(id), current.get(lang)?.get(id)]) {
            for (const linkedId of (doc?.[field] as number[] | undefined) ?? []) linked.add(linkedId);
          }
        }
      }
      await sync.markDirty(linkedKind, [...linked]);
    }
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
        if (!this.indexesReady) {
          await ensureSearchIndexes(this.services);
          this.indexesReady = true;
        }
        const claimed = await this.services.sync.claim(this.owner, this.batchSize, this.leaseMs);
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
        errorsInARow++;
        this.services.log.error({ err }, 'sync: could not claim work');
        await this.idle(Math.min(MAX_RETRY_MS, BASE_RETRY_MS * 2 ** Math.min(errorsInARow, 6)), false);
      }
    }
    await Promise.all(inFlight);
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
