import type { Client } from '@elastic/elasticsearch';
import type { Services } from '../../services/container';
import { withRunMemo } from '../../services/views/batchCache';
import { prepareGroup } from '../batchDocuments';
import { storeOf } from '../../storage/stores';
import { syncBulkIndexer, type BulkIndexer, type BulkOperation } from '../bulkIndexer';
import type { Language } from '../../../config/index';
import { documentCount, eventRecordCount, label } from './indexAdmin';
import { seriesBeforeWindow } from '../seriesWindow';
import { OpsError, UnreachableError } from '../opsError';
import type { Progress } from '../progress';
import { idRanges, versionedRange, type VersionedRecords } from '../recordStream';
import type { RecordKind } from '../../domain/kinds';

/** Batches prepared while the previous one is being indexed (as the worker does). */
const BATCHES_IN_FLIGHT = 2;
const ERROR_SAMPLES = 5;
const RUN_AGAIN = 'the live aliases are unchanged; once it answers, run the reindex again';

export interface LoadOptions {
  kind: RecordKind;
  /** Live alias → the write alias of the index being built behind it (selected languages only). */
  targets: ReadonlyMap<string, string>;
  batchSize: number;
  signal?: AbortSignal;
  progress: Progress;
  onBatch?: (kind: RecordKind, done: number) => void | Promise<void>;
}

export interface LoadResult {
  records: number;
  errors: number;
  /** A few failures, `id: reason`, for the error line. */
  samples: string[];
}

interface BatchResult {
  records: number;
  failed: string[];
}

/**
 * Streams every record of the kind from MongoDB and bulk-loads it into the new indexes with the
 * worker's own code path: versions read first, then `prepareGroup` (the same reads, views and
 * mapper), then the same BulkIndexer, at the same external versions.
 */
export async function loadRecords(services: Services, client: Client, options: LoadOptions): Promise<LoadResult> {
  // Once Elasticsearch is found gone, the requests still in flight are not waited for.
  const gone = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, gone.signal]) : gone.signal;
  const indexer = syncBulkIndexer(client, services.config, services.log, signal);
  const result: LoadResult = { records: 0, errors: 0, samples: [] };
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  const store = storeOf(services.stores, options.kind);
  // Event documents embed term counts (replaced by the term index's when served): once per run.
  const batchServices = options.kind === 'event' ? withRunMemo(services) : services;
  try {
    for await (const [first, last] of idRanges(store, options.batchSize, options.signal)) {
      while (inFlight.size >= BATCHES_IN_FLIGHT) await Promise.race(inFlight);
      if (failure !== undefined) break;
      options.signal?.throwIfAborted();
      const batch: Promise<void> = versionedRange(services.sync, store, first, last)
        .then((range) => loadBatch(batchServices, client, indexer, options, range))
        .then(async (done) => {
          if (done.records === 0) return;
          result.records += done.records;
          result.errors += done.failed.length;
          result.samples.push(...done.failed.slice(0, ERROR_SAMPLES - result.samples.length));
          options.progress.tick(done.records, done.failed.length);
          await options.onBatch?.(options.kind, result.records);
        })
        .catch((err: unknown) => {
          failure ??= err;
          if (err instanceof UnreachableError) gone.abort();
        })
        .finally(() => inFlight.delete(batch));
      inFlight.add(batch);
    }
  } finally {
    await Promise.allSettled(inFlight);
    await indexer.close();
  }
  if (failure !== undefined) throw failure;
  options.signal?.throwIfAborted();
  return result;
}

async function loadBatch(
  services: Services,
  client: Client,
  indexer: BulkIndexer,
  options: LoadOptions,
  { entries, records }: VersionedRecords<any>,
): Promise<BatchResult> {
  if (entries.length === 0) return { records: 0, failed: [] };
  const group = await prepareGroup(services, client, options.kind, entries, { propagate: false, records });
  const failed: string[] = [];
  const outcomes = entries.map(async (entry) => {
    const operations = group.operations.get(entry.key);
    if (!operations) {
      failed.push(`${entry.id}: the record could not be presented (incomplete?)`);
      return;
    }
    const ops = operations.flatMap((op): BulkOperation[] => {
      const target = options.targets.get(op.index);
      return target ? [{ ...op, index: target }] : [];
    });
    const results = await Promise.all(ops.map((op) => indexer.push(op)));
    const error = results.find((outcome) => !outcome.ok);
    options.signal?.throwIfAborted();
    // No answer at all, after the retries: Elasticsearch is gone, not this record's document.
    if (error?.unreachable)
      throw new UnreachableError(`Elasticsearch stopped answering (${error.error}): ${RUN_AGAIN}`);
    if (error) failed.push(`${entry.id}: ${error.error ?? `status ${error.status}`}`);
  });
  await Promise.all(outcomes);
  return { records: entries.length, failed };
}

/**
 * The documents in each new index, checked against the kind's records in MongoDB. Writes go on
 * while counting: the records are counted before and after the documents, and the documents must
 * fall between the two, give or take the changes in flight.
 */
export async function checkCounts(
  services: Services,
  client: Client,
  kind: RecordKind,
  built: { lang: Language; index: string }[],
): Promise<number[]> {
  // A series whose occurrences all ended before the index window has no document.
  const countRecordsAndPending = async () => {
    const [records, pending, unindexed] = await Promise.all([
      storeOf(services.stores, kind).countRecords(),
      services.sync.pendingCount(kind),
      kind === 'event' ? seriesBeforeWindow(services) : 0,
    ]);
    return [records - unindexed, pending] as const;
  };
  const before = await countRecordsAndPending();
  const counts = await Promise.all(built.map(({ index }) => documentCount(client, index)));
  const represented =
    kind === 'event' ? await Promise.all(built.map(({ index }) => eventRecordCount(client, index))) : counts;
  const after = await countRecordsAndPending();
  const pending = Math.max(before[1], after[1]);
  const [fewest, most] = [Math.min(before[0], after[0]), Math.max(before[0], after[0])];
  const records = fewest === most ? `${fewest}` : `${fewest}-${most}`;
  for (const [i, { lang, index }] of built.entries()) {
    const indexed = represented[i] as number;
    if (indexed < fewest - pending || indexed > most + pending) {
      throw new OpsError(
        `count check failed for ${label(kind, lang)}: ${records} records in MongoDB but ${indexed} in ${index} (${pending} changes in flight); the live alias is unchanged: see "npm run sync:verify", then run the reindex again`,
      );
    }
  }
  return counts;
}
