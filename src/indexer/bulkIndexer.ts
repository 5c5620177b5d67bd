import { setTimeout as sleep } from 'node:timers/promises';
import type { Client, estypes } from '@elastic/elasticsearch';
import { isSearchTransportError } from '../search/client';
import type { Logger } from '../lib/log';
import type { Config } from '../../config';

/** One write to the index. `version` is the external version: an older one never wins. */
export type BulkOperation =
  | { action: 'index'; index: string; id: string; version: number; document: Record<string, unknown> }
  | { action: 'delete'; index: string; id: string; version: number };

/**
 * `ok` when the operation is applied, or made moot by a newer version already indexed (409) or
 * a delete of a document already gone (404).
 */
export interface BulkOutcome {
  ok: boolean;
  status: number;
  error?: string;
  /** No answer at all, retries included: connections refused or timed out. */
  unreachable?: boolean;
}

export interface BulkIndexerOptions {
  flushBytes: number;
  flushMs: number;
  concurrency: number;
  /** Retries of 429/5xx and connection failures, with exponential backoff. */
  maxRetries?: number;
  retryBaseMs?: number;
  log?: Logger;
  /** Aborts the requests in flight and every retry (their operations fail at once). */
  signal?: AbortSignal;
}

interface Queued {
  /** Only the action is kept (the outcome of a 404 depends on it), not the document. */
  action: BulkOperation['action'];
  /**
   * The operation's NDJSON lines, encoded once when pushed: a request's body is these bytes
   * joined, sent as they are (no string joined, measured and encoded again per request).
   */
  lines: Buffer;
  settle(outcome: BulkOutcome): void;
}

type BulkLines = estypes.BulkRequest['operations'];

/** All a response item is read for: ES answers without the rest (ids, shards, sequence numbers). */
const ITEM_FIELDS = ['items.*.status', 'items.*.error'];

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

function actionLine(op: BulkOperation): estypes.BulkOperationContainer {
  const meta = { _index: op.index, _id: op.id, version: op.version, version_type: 'external' as const };
  // require_alias: a write to a missing alias must fail, never auto-create an unmapped index.
  return op.action === 'index' ? { index: { ...meta, require_alias: true } } : { delete: meta };
}

function outcomeOf(action: BulkOperation['action'], item: estypes.BulkResponseItem): BulkOutcome {
  const status = item.status;
  if (status < 300 || status === 409 || (action === 'delete' && status === 404)) return { ok: true, status };
  return {
    ok: false,
    status,
    error: item.error ? `${item.error.type}: ${item.error.reason ?? ''}` : `status ${status}`,
  };
}

/**
 * Batches index/delete operations into bulk requests like the Elasticsearch client's bulk helper:
 * a request goes out when the buffer reaches `flushBytes` or `flushMs` after its first operation,
 * at most `concurrency` requests are in flight (more wait their turn), and 429/5xx answers and
 * connection failures are retried with exponential backoff. Each `push` resolves with the outcome
 * of its own operation once the request carrying it is done, so a caller checkpoints only after
 * the flush that carried its work.
 */
export class BulkIndexer {
  private buffer: Queued[] = [];
  private bufferBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly waiting: Queued[][] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;

  constructor(
    private readonly client: Client,
    private readonly options: BulkIndexerOptions,
  ) {
    this.maxRetries = options.maxRetries ?? 3;
    this.retryBaseMs = options.retryBaseMs ?? 100;
  }

  push(op: BulkOperation): Promise<BulkOutcome> {
    return new Promise((settle) => {
      const action = JSON.stringify(actionLine(op));
      const lines = Buffer.from(op.action === 'index' ? `${action}\n${JSON.stringify(op.document)}\n` : `${action}\n`);
      this.buffer.push({ action: op.action, lines, settle });
      this.bufferBytes += lines.length;
      if (this.bufferBytes >= this.options.flushBytes) this.dispatch();
      else this.timer ??= setTimeout(() => this.dispatch(), this.options.flushMs);
    });
  }

  /** Sends what is buffered now and waits until every request in flight is done. */
  async flush(): Promise<void> {
    this.dispatch();
    while (this.inFlight.size > 0 || this.waiting.length > 0) await Promise.race(this.inFlight);
  }

  /**
   * Resolves once no request waits for a free slot: a producer that awaits it before preparing
   * more keeps `concurrency` requests busy with at most one more request's worth queued (the
   * bulk helper's backpressure on its datasource).
   */
  async ready(): Promise<void> {
    while (this.waiting.length > 0) await Promise.race(this.inFlight);
  }

  async close(): Promise<void> {
    await this.flush();
  }

  /**
   * Sends what is buffered now if a request slot is free: a producer with nothing more to push
   * for a while does not leave Elasticsearch idle until `flushMs`; with every slot busy, the
   * buffer goes on filling up.
   */
  sendIfIdle(): void {
    if (this.inFlight.size < this.options.concurrency && this.waiting.length === 0) this.dispatch();
  }

  /** Sends what is buffered now without waiting (each push's promise tells its outcome). */
  sendNow(): void {
    this.dispatch();
  }

  private dispatch(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffer.length === 0) return;
    this.waiting.push(this.buffer);
    this.buffer = [];
    this.bufferBytes = 0;
    this.startWaiting();
  }

  private startWaiting(): void {
    while (this.inFlight.size < this.options.concurrency && this.waiting.length > 0) {
      const chunk = this.waiting.shift() as Queued[];
      const request: Promise<void> = this.send(chunk).finally(() => {
        this.inFlight.delete(request);
        this.startWaiting();
      });
      this.inFlight.add(request);
    }
  }

  private async send(chunk: Queued[]): Promise<void> {
    let pending = chunk;
    for (let attempt = 0; pending.length > 0; attempt++) {
      const retry: Queued[] = [];
      let failure: string | undefined;
      let unreachable = false;
      try {
        // A Buffer goes out as it is (the client's NDJSON serializer only serializes arrays).
        const operations = Buffer.concat(pending.map((queued) => queued.lines)) as unknown as BulkLines;
        const response = await this.client.bulk(
          { operations, filter_path: ITEM_FIELDS },
          { maxRetries: 0, signal: this.options.signal },
        );
        response.items.forEach((item, i) => {
          const queued = pending[i] as Queued;
          const result = Object.values(item)[0] as estypes.BulkResponseItem;
          if (isRetryableStatus(result.status)) {
            retry.push(queued);
            // Say why (a full disk's `cluster_block_exception` is a 429 too).
            failure ??= result.error
              ? `${result.status} ${result.error.type}: ${result.error.reason}`
              : `${result.status}`;
          } else queued.settle(outcomeOf(queued.action, result));
        });
      } catch (err) {
        const e = err as Error & { meta?: { statusCode?: number } };
        const status = e.meta?.statusCode ?? 0;
        if (this.options.signal?.aborted || (!isSearchTransportError(e) && !isRetryableStatus(status))) {
          for (const queued of pending) queued.settle({ ok: false, status, error: e.message });
          return;
        }
        failure = e.message;
        unreachable = isSearchTransportError(e);
        retry.push(...pending);
      }
      if (retry.length > 0 && attempt >= this.maxRetries) {
        this.options.log?.warn({ operations: retry.length, error: failure }, 'bulk indexing gave up after retries');
        const outcome = {
          ok: false,
          status: 0,
          error: failure ?? 'rejected (429/5xx)',
          unreachable,
        };
        for (const queued of retry) queued.settle(outcome);
        return;
      }
      if (retry.length > 0)
        await sleep(this.retryBaseMs * 2 ** attempt * (1 + Math.random() / 2), undefined, {
          signal: this.options.signal,
        }).catch(() => undefined);
      pending = retry;
    }
  }
}

/** The indexer of live sync and of reindex alike: flush sizes and concurrency from the sync settings. */
export function syncBulkIndexer(client: Client, config: Config, log: Logger, signal: AbortSignal): BulkIndexer {
  const { flushBytes, flushMs, concurrency } = config.sync;
  return new BulkIndexer(client, { flushBytes, flushMs, concurrency, log, signal });
}
