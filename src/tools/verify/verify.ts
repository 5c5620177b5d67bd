/**
 * Drift check between MongoDB and Elasticsearch (`npm run sync:verify`, scripts/sync-verify.ts).
 *
 *   verifySync(services, options?) → Promise<VerifyReport>
 *   formatVerifyReport(report) → string[] (the lines the script prints)
 *
 * options: `kinds`, `langs` (default all), `repair` (queue fixes through the worker path),
 * `pageSize` (default 1000), `samples` (IDs shown per difference, default 10), `progress`,
 * `signal`.
 *
 * For each kind and language, streams the records from MongoDB (cursor sorted by ID, with their
 * sync entries) and the documents behind the alias (search_after sorted by ID, with `_version`)
 * and merge-compares them in bounded memory. Differences:
 *  - missing: a record with no index document;
 *  - extra:   an index document of a record that no longer exists;
 *  - stale:   an index document whose version is not the record's sync version (records whose
 *             sync entry is pending are in flight and only counted as `pending`).
 * Every suspect is re-read (sync entry, record, realtime get) before it is reported, so changes
 * racing with the scan are not reported as drift. `repair` marks every confirmed difference dirty
 * (raising the sync version above the index document's first, so the worker's write or delete
 * wins even for IDs the queue never knew); the worker then fixes them.
 */
import type { Client } from '@elastic/elasticsearch';
import { LANGUAGES, type Language } from '../../../config';
import type { Services } from '../../services/container';
import { markDirtyAbove } from '../../storage/syncRepair';
import { storeOf } from '../../storage/stores';
import { createBackgroundSearchClient } from '../../search/client';
import { aliasName } from '../../search/indexNames';
import type { SyncEntry } from '../../storage/syncQueue';
import { databaseItems, indexItems, mergeById, Peekable, type Pair } from './driftStreams';
import { indexesBehind, label } from '../../indexer/reindex/indexAdmin';
import { startProgress, type ProgressFactory } from '../../indexer/progress';
import { RECORD_KINDS, type RecordKind } from '../../domain/kinds';

export interface VerifyOptions {
  kinds?: readonly RecordKind[];
  langs?: readonly Language[];
  repair?: boolean;
  /** A change pending longer than this is stuck (no worker?), a difference (default 60 s). */
  stuckAfterMs?: number;
  pageSize?: number;
  samples?: number;
  progress?: ProgressFactory;
  signal?: AbortSignal;
}

export type DriftType = 'missing' | 'extra' | 'stale';

export interface Drift {
  id: number;
  type: DriftType;
  detail: string;
}

export interface AliasCheck {
  kind: RecordKind;
  lang: Language;
  alias: string;
  aliasMissing: boolean;
  /** Records in MongoDB and documents in the index, as scanned. */
  database: number;
  index: number;
  missing: number;
  extra: number;
  stale: number;
  /** Records whose change is in flight (not compared). */
  pending: number;
  /** Of those, the ones waiting for longer than `stuckAfterMs`: no worker is taking them. */
  stuck: number;
  /** The first differences of each type. */
  samples: Drift[];
  /** Records queued for repair. */
  repaired: number;
}

export interface VerifyReport {
  inSync: boolean;
  /** Pending changes older than this counted as stuck. */
  stuckAfterMs: number;
  aliases: AliasCheck[];
  repaired: number;
  seconds: number;
}

/** Suspects are confirmed (re-read) this many at a time. */
const CONFIRM_BATCH = 500;
/** A running worker takes a change within a second or two; one waiting a minute is stuck. */
export const STUCK_AFTER_MS = 60_000;

/** Counts a pending entry, and whether it has waited too long for a worker. */
function countPending(check: AliasCheck, entry: SyncEntry, options: VerifyOptions): void {
  check.pending++;
  if (Date.now() - entry.dirtyAt.getTime() > (options.stuckAfterMs ?? STUCK_AFTER_MS)) check.stuck++;
}

export async function verifySync(services: Services, options: VerifyOptions = {}): Promise<VerifyReport> {
  const started = Date.now();
  const client = createBackgroundSearchClient(services.config.elasticsearch.url as string);
  const aliases: AliasCheck[] = [];
  try {
    for (const kind of options.kinds ?? RECORD_KINDS) {
      const total = await storeOf(services.stores, kind).countRecords();
      for (const lang of options.langs ?? LANGUAGES)
        aliases.push(await verifyAlias(services, client, kind, lang, total, options));
    }
  } finally {
    await client.close();
  }
  const inSync = aliases.every((a) => !a.aliasMissing && a.missing + a.extra + a.stale + a.stuck === 0);
  return {
    inSync,
    stuckAfterMs: options.stuckAfterMs ?? STUCK_AFTER_MS,
    aliases,
    repaired: aliases.reduce((sum, a) => sum + a.repaired, 0),
    seconds: (Date.now() - started) / 1000,
  };
}

async function verifyAlias(
  services: Services,
  client: Client,
  kind: RecordKind,
  lang: Language,
  total: number,
  options: VerifyOptions,
): Promise<AliasCheck> {
  const alias = aliasName(services.config, kind, lang);
  const check: AliasCheck = {
    kind,
    lang,
    alias,
    aliasMissing: false,
    database: 0,
    index: 0,
    missing: 0,
    extra: 0,
    stale: 0,
    pending: 0,
    stuck: 0,
    samples: [],
    repaired: 0,
  };
  if ((await indexesBehind(client, alias)).length === 0) return { ...check, aliasMissing: true };
  const pageSize = options.pageSize ?? 1000;
  const database = new Peekable(databaseItems(services, kind, pageSize, options.signal));
  const index = new Peekable(indexItems(client, alias, pageSize, options.signal));
  const progress = (options.progress ?? ((l, t) => startProgress({ label: l, total: t, silent: true })))(
    `verify ${label(kind, lang)}`,
    total,
    'difference',
  );
  let suspects: Pair[] = [];
  let completed = false;
  try {
    for await (const pair of mergeById(database, index)) {
      if (pair.database) {
        check.database++;
        if (check.database % pageSize === 0) progress.tick(pageSize);
      }
      if (pair.index) check.index++;
      if (pair.database?.entry?.pending) countPending(check, pair.database.entry, options);
      else if (!pair.database || !pair.index || pair.database.entry?.version !== pair.index.version)
        suspects.push(pair);
      if (suspects.length >= CONFIRM_BATCH) {
        await settleSuspects(services, client, check, suspects, options);
        suspects = [];
      }
    }
    await settleSuspects(services, client, check, suspects, options);
    completed = true;
  } finally {
    progress.tick(check.database % pageSize, check.missing + check.extra + check.stale);
    progress.finish(!completed);
    await Promise.all([database.close(), index.close()]);
  }
  return check;
}

/** Re-reads the suspects, counts the confirmed differences and, with `repair`, queues fixes. */
async function settleSuspects(
  services: Services,
  client: Client,
  check: AliasCheck,
  suspects: Pair[],
  options: VerifyOptions,
): Promise<void> {
  if (suspects.length === 0) return;
  const ids = suspects.map((s) => s.id);
  // Entry first: a change completing after it is then seen as pending or as already applied.
  const entries = await services.sync.entriesOf(check.kind, ids);
  const records = await storeOf(services.stores, check.kind).getMany(ids);
  const docs = await client.mget({ index: check.alias, ids: ids.map(String), _source: false });
  const versions = new Map<number, number>();
  for (const doc of docs.docs) if ('found' in doc && doc.found) versions.set(Number(doc._id), doc._version ?? 0);
  const drifts: Drift[] = [];
  for (const id of ids) {
    const entry = entries.get(id);
    const indexed = versions.get(id);
    if (entry?.pending) countPending(check, entry, options);
    else if (records.has(id) && indexed === undefined) drifts.push({ id, type: 'missing', detail: 'not in the index' });
    else if (!records.has(id) && indexed !== undefined)
      drifts.push({ id, type: 'extra', detail: `index v${indexed}, no record` });
    else if (indexed !== undefined && entry?.version !== indexed)
      drifts.push({
        id,
        type: 'stale',
        detail: entry ? `index v${indexed}, database v${entry.version}` : `index v${indexed}, no sync entry`,
      });
  }
  for (const drift of drifts) {
    check[drift.type]++;
    if (check.samples.filter((s) => s.type === drift.type).length < (options.samples ?? 10)) check.samples.push(drift);
  }
  if (options.repair && drifts.length > 0) await repair(services, check.kind, drifts, versions, entries);
  if (options.repair) check.repaired += drifts.length;
}

/**
 * Queues the fixes through the worker: it re-indexes what exists and deletes what does not. The
 * new version must beat the index's: the document's own, or for a missing one the tombstone a
 * manual delete leaves (its version + 1).
 */
async function repair(
  services: Services,
  kind: RecordKind,
  drifts: Drift[],
  versions: Map<number, number>,
  entries: Map<number, SyncEntry>,
): Promise<void> {
  const floorOf = (drift: Drift) =>
    drift.type === 'missing' ? (entries.get(drift.id)?.version ?? 0) + 1 : (versions.get(drift.id) ?? 0);
  await markDirtyAbove(services.sync, kind, new Map(drifts.map((drift) => [drift.id, floorOf(drift)])));
}

export function formatVerifyReport(report: VerifyReport, options: { repair?: boolean } = {}): string[] {
  const lines: string[] = [];
  for (const check of report.aliases) {
    const name = label(check.kind, check.lang);
    if (check.aliasMissing) {
      lines.push(
        `${name}: alias ${check.alias} does not exist: run "npm run reindex -- --kind ${label(check.kind)} --lang ${check.lang}" to build it`,
      );
      continue;
    }
    const differences = check.missing + check.extra + check.stale;
    const stuck = check.stuck > 0 ? ` (${check.stuck} waiting over ${report.stuckAfterMs / 1000} s)` : '';
    const pending = check.pending > 0 ? `, ${check.pending} pending${stuck}` : '';
    lines.push(
      `${name}: ${check.database} records, ${check.index} documents: ${differences === 0 ? 'in sync' : `missing ${check.missing}, extra ${check.extra}, stale ${check.stale}`}${pending}`,
    );
    for (const type of ['missing', 'extra', 'stale'] as const) {
      const samples = check.samples.filter((s) => s.type === type);
      if (samples.length > 0)
        lines.push(
          `  ${type}: ${samples.map((s) => (type === 'missing' ? String(s.id) : `${s.id} (${s.detail})`)).join(', ')}${check[type] > samples.length ? ', …' : ''}`,
        );
    }
  }
  const drift = report.aliases.reduce((sum, a) => sum + a.missing + a.extra + a.stale, 0);
  const stuck = report.aliases.reduce((sum, a) => sum + a.stuck, 0);
  const missingAliases = report.aliases.filter((a) => a.aliasMissing).length;
  const what = [
    drift > 0 ? `${drift} differences` : '',
    missingAliases > 0 ? `${missingAliases} aliases missing` : '',
    stuck > 0
      ? `${stuck} changes waiting over ${report.stuckAfterMs / 1000} s: is a sync worker running (npm start or npm run worker), and does Elasticsearch take its writes (its log, calendar_sync_bulk_failures_total)?`
      : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (report.inSync) lines.push(`in sync (${report.seconds.toFixed(1)} s)`);
  else if (drift === 0) lines.push(`NOT in sync: ${what}`);
  else if (options.repair)
    lines.push(
      `NOT in sync: ${what}; queued ${report.repaired} repairs for the sync worker: run again once it has caught up`,
    );
  else lines.push(`NOT in sync: ${what}; "npm run sync:verify -- --repair" queues the fixes`);
  return lines;
}
