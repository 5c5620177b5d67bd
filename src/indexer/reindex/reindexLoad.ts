import type { Client } from '@elastic/elasticsearch';
import type { Services } from '../../services/container';
import { withRunMemo } from '../../services/views/batchCache';
import { prepareGroup, seriesParts } from '../batchDocuments';
import { storeOf } from '../../storage/stores';
import { syncBulkIndexer, type BulkIndexer, type BulkOutcome } from '../bulkIndexer';
import type { Language } from '../../../config/index';
import { documentCount, eventRecordCount, label } from './indexAdmin';
import { seriesBeforeWindow } from '../seriesWindow';
import { OpsError, UnreachableError } from '../opsError';
import type { Progress } from '../progress';
import { idRanges, versionedRange, type VersionedRecords } from '../recordStream';
import type { RecordKind } from '../../domain/kinds';

/**
 * Batches read and presented at once: presenting waits on MongoDB too (what a record embeds),
 * so with three one is presented while the others are read.
 */
const BATCHES_PREPARING = 3;
/** The first batch is this part of the others: the first bulk request goes out sooner. */
const FIRST_BATCH_PART = 4;
const ERROR_SAMPLES = 5;
const RUN_AGAIN = 'the live aliases are unchanged; once it answers, run the reindex again';

export interface LoadOptions {
  kind: RecordKind;
  /** Live alias → the write alias of the index being built behind it (selected languages only). */
  targets: ReadonlyMap<string, string>;
  batchSize: number;
  /** The kind's highest ID when the load was planned (the last range is open-ended anyway). */
  highestId: number;
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
 *
 * The next batch is read as soon as the indexer has no request waiting for a slot, without
 * waiting for the previous batches' requests to be answered: the indexer cuts its requests by
 * size across batches and keeps `concurrency` of them in flight throughout, as the raw bulk
 * helper does, while memory stays bounded by the requests queued and the batches being prepared.
 */
export async function loadRecords(services: Services, client: Client, options: LoadOptions): Promise<LoadResult> {
  // Once Elasticsearch is found gone, the requests still in flight are not waited for.
  const gone = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, gone.signal]) : gone.signal;
  const indexer = syncBulkIndexer(client, services.config, services.log, signal);
  const result: LoadResult = { records: 0, errors: 0, samples: [] };
  const preparing = new Set<Promise<void>>();
  const indexing = new Set<Promise<void>>();
  let failure: unknown;
  const fail = (err: unknown) => {
    failure ??= err;
    if (err instanceof UnreachableError) gone.abort();
  };
  const tally = async (done: BatchResult) => {
    result.records += done.records;
    result.errors += done.failed.length;
    result.samples.push(...done.failed.slice(0, ERROR_SAMPLES - result.samples.length));
    options.progress.tick(done.records, done.failed.length);
    await options.onBatch?.(options.kind, result.records);
  };
  const store = storeOf(services.stores, options.kind);
  // Event documents embed term counts (replaced by the term index's when served): once per run.
  const batchServices = options.kind === 'event' ? withRunMemo(services) : services;
  try {
    for await (const [first, last] of idRanges(
      { highestId: async () => options.highestId },
      options.batchSize,
      options.signal,
      Math.ceil(options.batchSize / FIRST_BATCH_PART),
    )) {
      while (preparing.size >= BATCHES_PREPARING) await Promise.race(preparing);
      await indexer.ready();
      if (failure !== undefined) break;
      options.signal?.throwIfAborted();
      const prepared: Promise<void> = versionedRange(services.sync, store, first, last)
        .then((range) => pushBatch(batchServices, client, indexer, options, range))
        .then(({ indexed }) => {
          if (!indexed) return;
          const tracked: Promise<void> = indexed
            .then(tally)
            .catch(fail)
            .finally(() => indexing.delete(tracked));
          indexing.add(tracked);
        })
        .catch(fail)
        .finally(() => preparing.delete(prepared));
      preparing.add(prepared);
    }
  } finally {
    await Promise.allSettled(preparing);
    await indexer.close();
    await Promise.allSettled(indexing);
  }
  if (failure !== undefined) throw failure;
  options.signal?.throwIfAborted();
  return result;
}

/**
 * Presents a batch and pushes its operations to the indexer; `indexed` settles once the requests
 * carrying them are answered (none for an empty range). Only the operations' lines stay queued,
 * not the batch's records and documents.
 */
async function pushBatch(
  services: Services,
  client: Client,
  indexer: BulkIndexer,
  options: LoadOptions,
  { entries, records }: VersionedRecords<any>,
): Promise<{ indexed?: Promise<BatchResult> }> {
  if (entries.length === 0) return {};
  const outcomes: Promise<string | undefined>[] = [];
  // A part's documents are held until pushed: many series are prepared a few at a time.
  for (const part of seriesParts(entries, records)) {
    if (outcomes.length > 0) await indexer.ready();
    const { operations } = await prepareGroup(services, client, options.kind, part, { propagate: false, records });
    for (const entry of part) {
      const ops = operations.get(entry.key);
      if (!ops) {
        outcomes.push(Promise.resolve(`${entry.id}: the record could not be presented (incomplete?)`));
        continue;
      }
      const pushed = ops.flatMap((op) => {
        const target = options.targets.get(op.index);
        return target ? [indexer.push({ ...op, index: target })] : [];
      });
      outcomes.push(failureOf(entry.id, pushed, options.signal));
    }
    indexer.sendIfIdle();
  }
  return { indexed: batchResult(entries.length, outcomes) };
}

async function batchResult(records: number, outcomes: Promise<string | undefined>[]): Promise<BatchResult> {
  const failed = (await Promise.all(outcomes)).filter((failure): failure is string => failure !== undefined);
  return { records, failed };
}

/** A record's failure once its operations are answered, if any. */
async function failureOf(
  id: number,
  pushed: Promise<BulkOutcome>[],
  signal?: AbortSignal,
): Promise<string | undefined> {
  const error = (await Promise.all(pushed)).find((outcome) => !outcome.ok);
  signal?.throwIfAborted();
  // No answer at all, after the retries: Elasticsearch is gone, not this record's document.
  if (error?.unreachable) throw new UnreachableError(`Elasticsearch stopped answering (${error.error}): ${RUN_AGAIN}`);
  return error ? `${id}: ${error.error ?? `status ${error.status}`}` : undefined;
}

/**
 * The documents in each new index, checked against the kind's records in MongoDB. Writes go on
 * while counting: the records are counted before and after the refresh that the documents are
 * counted at, and the documents must fall between the two, give or take the changes in flight.
 * `refresh` makes the loaded documents visible: the records are counted the first time meanwhile.
 */
export async function checkCounts(
  services: Services,
  client: Client,
  kind: RecordKind,
  built: { lang: Language; index: string }[],
  refresh: () => Promise<unknown>,
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
  const [before] = await Promise.all([countRecordsAndPending(), refresh()]);
  // Every index at once, its documents and (events) the records they represent alike, as of the
  // refresh: the records are counted after it meanwhile.
  const [counts, represented, after] = await Promise.all([
    Promise.all(built.map(({ index }) => documentCount(client, index))),
    kind === 'event' ? Promise.all(built.map(({ index }) => eventRecordCount(client, index))) : null,
    countRecordsAndPending(),
  ]);
  const pending = Math.max(before[1], after[1]);
  const [fewest, most] = [Math.min(before[0], after[0]), Math.max(before[0], after[0])];
  const records = fewest === most ? `${fewest}` : `${fewest}-${most}`;
  for (const [i, { lang, index }] of built.entries()) {
    const indexed = (represented ?? counts)[i] as number;
    if (indexed < fewest - pending || indexed > most + pending) {
      throw new OpsError(
        `count check failed for ${label(kind, lang)}: ${records} records in MongoDB but ${indexed} in ${index} (${pending} changes in flight); the live alias is unchanged: see "npm run sync:verify", then run the reindex again`,
      );
    }
  }
  return counts;
}
