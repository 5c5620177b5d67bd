/**
 * Zero-downtime rebuild of the search indexes (`npm run reindex`, scripts/reindex.ts).
 *
 *   reindex(services, options?) → Promise<ReindexResult>
 *
 * options: `kinds` (default all five), `langs` (default all three), `batchSize` (IDs per
 * batch, default 500), `dryRun` (print what would happen and the counts, change nothing),
 * `signal` (AbortSignal: interrupts the run, nothing swapped), `progress` (a ProgressFactory from
 * ./progress, default silent), `say` (operator lines, default none), `onBatch(kind, done)`.
 *
 * For each kind, for the selected languages:
 *  1. takes the aliases' lease (refused while another run holds it); deletes half-built indexes
 *     and registrations of earlier (interrupted) runs;
 *  2. creates the next versioned index behind each alias (`…-events-en-v3`) with the current
 *     mapping, with a write alias (`…-events-en-rebuild`), and registers it in MongoDB
 *     (`reindex_targets`, heartbeat): the sync worker then writes every change to the live alias
 *     AND the new index until the swap (external versions make the order irrelevant);
 *  3. reads every record from MongoDB by ID range, `batchSize` IDs a range up to the kind's
 *     highest ID, the last range open-ended (bounded memory, one read per range), its sync
 *     version before its content, maps it with the worker's prepareGroup and loads it with the
 *     worker's BulkIndexer;
 *  4. checks the load had no errors, the heartbeat never lapsed, and that the new index holds as
 *     many documents as MongoDB has records (give or take the changes in flight);
 *  5. swaps the aliases in ONE updateAliases call, unregisters, deletes the old indexes.
 * Any failure or interruption before the swap removes the new index and leaves the live aliases
 * untouched; running again starts over.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import { LANGUAGES, type Language } from '../../../config/index';
import type { Services } from '../../services/container';
import { storeOf } from '../../storage/stores';
import { createBackgroundSearchClient } from '../../search/client';
import { aliasName } from '../../search/indexNames';
import * as admin from './indexAdmin';
import { InterruptedError, OpsError } from '../opsError';
import { startProgress, type ProgressFactory } from '../progress';
import type { RebuildRegistration } from './rebuildRegistration';
import { abandonBuilds, clearLeftovers, createBuilds, planBuilds, type Build } from './reindexBuilds';
import { ReindexLease } from './reindexLease';
import { checkCounts, loadRecords } from './reindexLoad';
import { RECORD_KINDS, type RecordKind } from '../../domain/kinds';

export interface ReindexOptions {
  kinds?: readonly RecordKind[];
  langs?: readonly Language[];
  batchSize?: number;
  dryRun?: boolean;
  signal?: AbortSignal;
  progress?: ProgressFactory;
  say?: (line: string) => void;
  onBatch?: (kind: RecordKind, done: number) => void | Promise<void>;
}

export interface ReindexedAlias {
  lang: Language;
  alias: string;
  /** Indexes the alias pointed to before (deleted after the swap). */
  from: string[];
  to: string;
  /** Documents in the new index at the swap (dry run: in the live index). */
  documents: number;
}

export interface KindReport {
  kind: RecordKind;
  records: number;
  errors: number;
  seconds: number;
  aliases: ReindexedAlias[];
}

export interface ReindexResult {
  dryRun: boolean;
  kinds: KindReport[];
  records: number;
  errors: number;
  seconds: number;
}

export const DEFAULT_REINDEX_BATCH = 500;
/** Searches still running on an old index when it is swapped out get this long to finish. */
const OLD_INDEX_GRACE_MS = 1_000;

interface Run {
  id: string;
  services: Services;
  client: Client;
  langs: readonly Language[];
  options: ReindexOptions;
  say: (line: string) => void;
}

/** What a kind's rebuild loaded, checked and (once swapped) put live. */
interface Loaded {
  records: number;
  aliases: ReindexedAlias[];
}

export async function reindex(services: Services, options: ReindexOptions = {}): Promise<ReindexResult> {
  const started = Date.now();
  const client = createBackgroundSearchClient(services.config.elasticsearch.url as string);
  const run: Run = {
    id: randomBytes(4).toString('hex'),
    services,
    client,
    langs: options.langs ?? LANGUAGES,
    options,
    say: options.say ?? (() => undefined),
  };
  const wanted = options.kinds ?? RECORD_KINDS;
  const kinds: KindReport[] = [];
  const oldIndexes: string[] = [];
  try {
    for (const kind of wanted) kinds.push(await reindexKind(run, kind, oldIndexes));
  } catch (err) {
    if (options.signal?.aborted) {
      const swapped = kinds.map((k) => admin.label(k.kind)).join(', ');
      const unchanged = wanted
        .slice(kinds.length)
        .map((kind) => admin.label(kind))
        .join(', ');
      const state = swapped
        ? `the live aliases of ${unchanged} are unchanged (${swapped} were rebuilt and are live)`
        : 'the live aliases are unchanged';
      throw new InterruptedError(`interrupted before the swap: ${state}; run the reindex again`);
    }
    throw err;
  } finally {
    // The old indexes of the kinds already swapped go, even when a later kind failed.
    if (oldIndexes.length > 0) {
      await sleep(OLD_INDEX_GRACE_MS);
      await admin
        .deleteIndexes(client, oldIndexes)
        .catch((err: Error) => run.say(`could not delete the old indexes (the next reindex will): ${err.message}`));
    }
    await client.close();
  }
  return {
    dryRun: Boolean(options.dryRun),
    kinds,
    records: kinds.reduce((sum, k) => sum + k.records, 0),
    errors: kinds.reduce((sum, k) => sum + k.errors, 0),
    seconds: (Date.now() - started) / 1000,
  };
}

async function reindexKind(run: Run, kind: RecordKind, oldIndexes: string[]): Promise<KindReport> {
  const { services, client } = run;
  const started = Date.now();
  const aliases = run.langs.map((lang) => aliasName(services.config, kind, lang));
  // Taken before anything is read: what this run sees no other run changes until it is done.
  const lease = run.options.dryRun ? null : await ReindexLease.take(services.db, aliases, run.id, admin.label(kind));
  try {
    const builds = await planBuilds(client, services.config, kind, run.langs);
    if (!lease) return await describeDryRun(run, kind, builds, await storeOf(services.stores, kind).countRecords());
    const rebuilt = await rebuild(run, kind, builds, lease, oldIndexes);
    return { kind, ...rebuilt, errors: 0, seconds: (Date.now() - started) / 1000 };
  } finally {
    await lease?.release().catch(() => undefined);
  }
}

/** Builds the new indexes of one kind and swaps the aliases to them, holding the kind's lease. */
async function rebuild(
  run: Run,
  kind: RecordKind,
  builds: Build[],
  lease: ReindexLease,
  oldIndexes: string[],
): Promise<Loaded> {
  const { services, client } = run;
  const store = storeOf(services.stores, kind);
  // Read while Elasticsearch creates the indexes: the records expected, the highest ID to load.
  const extent = Promise.all([store.countRecords(), store.highestId()]);
  extent.catch(() => undefined); // awaited once the indexes exist
  await clearLeftovers(client, services.db, builds, run.say);
  let registration: RebuildRegistration | undefined;
  let report: Loaded;
  try {
    for (const build of builds.filter((b) => b.state.live.length === 0))
      run.say(`alias ${build.state.alias} does not exist: it will point to the new index`);
    registration = await createBuilds(client, services.db, kind, builds, {
      id: run.id,
      instance: services.instanceId,
    });
    const [records, highestId] = await extent;
    report = await loadAndCheck(run, kind, builds, { records, highestId }, registration);
    run.options.signal?.throwIfAborted();
    await registration.assertAlive();
    await lease.assertHeld();
    const before = await admin.swapAliases(
      client,
      builds.map((b) => ({ alias: b.state.alias, index: b.index })),
    );
    for (const alias of report.aliases) alias.from = before.get(alias.alias) ?? [];
    oldIndexes.push(...[...before.values()].flat());
  } catch (err) {
    await abandonBuilds(client, builds, registration).catch((cleanup: Error) =>
      run.say(`cleanup failed (the next reindex will finish it): ${cleanup.message}`),
    );
    throw err;
  }
  // Swapped: what remains is tidying up; a failure here leaves leftovers the next run removes.
  await registration.release().catch(() => undefined);
  await Promise.all(builds.map((b) => admin.removeWriteAlias(client, b.writeAlias, b.index).catch(() => undefined)));
  for (const alias of report.aliases)
    run.say(
      `${admin.label(kind, alias.lang)}: ${alias.alias} → ${alias.to} (${alias.documents} documents; was ${alias.from.join(', ') || 'none'})`,
    );
  return report;
}

async function loadAndCheck(
  run: Run,
  kind: RecordKind,
  builds: Build[],
  extent: { records: number; highestId: number },
  registration: RebuildRegistration,
): Promise<Loaded> {
  const { services, client } = run;
  const progress = (run.options.progress ?? ((label, total) => startProgress({ label, total, silent: true })))(
    `reindex ${admin.label(kind)}`,
    extent.records,
  );
  let loaded;
  try {
    loaded = await loadRecords(services, client, {
      kind,
      targets: new Map(builds.map((b) => [b.state.alias, b.writeAlias])),
      batchSize: run.options.batchSize ?? DEFAULT_REINDEX_BATCH,
      highestId: extent.highestId,
      signal: run.options.signal,
      progress,
      onBatch: run.options.onBatch,
    });
  } catch (err) {
    progress.finish(true);
    throw err;
  }
  progress.finish();
  if (loaded.errors > 0) {
    throw new OpsError(
      `${loaded.errors} ${admin.label(kind)} could not be indexed (${loaded.samples.join('; ')}); the live aliases are unchanged: fix them and run the reindex again`,
    );
  }
  await registration.assertAlive();
  const counts = await checkCounts(
    services,
    client,
    kind,
    builds.map((b) => ({ lang: b.state.lang, index: b.index })),
    () => Promise.all(builds.map((b) => admin.finishBuildIndex(client, services.config, b.index))),
  );
  const aliases = builds.map((build, i): ReindexedAlias => ({
    lang: build.state.lang,
    alias: build.state.alias,
    from: build.state.live,
    to: build.index,
    documents: counts[i] as number,
  }));
  return { records: loaded.records, aliases };
}

async function describeDryRun(run: Run, kind: RecordKind, builds: Build[], records: number): Promise<KindReport> {
  const aliases: ReindexedAlias[] = [];
  for (const { state, index } of builds) {
    const documents = state.live.length > 0 ? (await run.client.count({ index: state.alias })).count : 0;
    const now =
      state.live.length > 0
        ? `${state.alias} → ${state.live.join(', ')} (${documents} documents)`
        : `${state.alias} does not exist`;
    const leftovers =
      state.leftovers.length > 0 ? `; would delete ${state.leftovers.join(', ')} (left by an earlier run)` : '';
    run.say(
      `${admin.label(kind, state.lang)}: ${now}; would build ${index} from ${records} records and swap${leftovers}`,
    );
    aliases.push({ lang: state.lang, alias: state.alias, from: state.live, to: index, documents });
  }
  return { kind, records, errors: 0, seconds: 0, aliases };
}
