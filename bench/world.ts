import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadConfig, type Config } from '../config';
import { acquireServices, type RunningServices } from '../src/dev/embeddedServices';
import { createLogger } from '../src/lib/log';
import { openServices, type Services } from '../src/services/container';
import { emptyDatabase } from '../src/tools/emptyDatabase';
import { loadEmbeddedSettings } from '../config/embedded';

export const PROJECT_ROOT = path.resolve(__dirname, '..');

/** One bench run's own database and index prefix on the shared servers, removed at the end. */
export interface BenchWorld {
  runId: string;
  urls: { mongoUrl: string; elasticsearchUrl: string };
  config: Config;
  services: Services;
  /** Environment for the API, baseline, load and reindex children: same servers, same names. */
  childEnv: NodeJS.ProcessEnv;
  adminKey: string;
  close(keep: boolean): Promise<void>;
}

/** Seeding a big collection on jongodb takes long per insert: the bench's own client waits longer. */
const BENCH_STORAGE_TIMEOUT_MS = '30000';

/** Older than this, the indexes of a run whose database is gone are leftovers (not a run starting now). */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

/**
 * Deletes the indexes of earlier kept runs whose database is gone (the in-memory jongodb was
 * restarted): left alone they pile up in Elasticsearch's data folder, run after run.
 */
async function dropOrphanedRuns(services: Services, keepRun: string | null, log: (line: string) => void) {
  const indices = await services.search.cat.indices({
    index: 'bench-*',
    h: ['index', 'creation.date'],
    format: 'json',
  });
  const byRun = new Map<string, string[]>();
  for (const row of indices) {
    const runId = /^bench-([a-z0-9]+)-/.exec(row.index ?? '')?.[1];
    if (!runId || runId === keepRun || Date.now() - Number(row['creation.date']) < ORPHAN_AGE_MS) continue;
    byRun.set(runId, [...(byRun.get(runId) ?? []), row.index as string]);
  }
  for (const [runId, names] of byRun) {
    const events = await services.mongo.db(`calendar_${runId}`).collection('events').estimatedDocumentCount();
    if (events > 0) continue;
    await services.search.indices.delete({ index: names, ignore_unavailable: true });
    log(`deleted ${names.length} indexes of run ${runId}, whose database is gone`);
  }
}

export interface WorldOptions {
  /** The run ID of a world kept with --keep, to measure its data again. */
  reuse?: string | null;
  /** Servers to use (another world's): nothing is started. */
  urls?: { mongoUrl: string; elasticsearchUrl: string };
}

export async function openWorld(log: (line: string) => void, options: WorldOptions = {}): Promise<BenchWorld> {
  const runId = options.reuse ?? `b${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  let mongoUrl = options.urls?.mongoUrl ?? process.env.MONGO_URL;
  let elasticsearchUrl = options.urls?.elasticsearchUrl ?? process.env.ELASTICSEARCH_URL;
  let embedded: RunningServices | undefined;
  if (!mongoUrl || !elasticsearchUrl) {
    embedded = await acquireServices(PROJECT_ROOT, loadEmbeddedSettings(), 'bench', log);
    mongoUrl ??= embedded.mongoUrl;
    elasticsearchUrl ??= embedded.elasticsearchUrl;
  }
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    MONGO_URL: mongoUrl,
    ELASTICSEARCH_URL: elasticsearchUrl,
    MONGO_DATABASE: `calendar_${runId}`,
    INDEX_PREFIX: `bench-${runId}`,
    BOOTSTRAP_ADMIN_KEY: 'false',
    // The bench measures capacity: per-key write limits (a policy) would cap the write scenario.
    RATE_LIMIT: 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  const config = loadConfig({ ...childEnv, MONGO_TIMEOUT_MS: BENCH_STORAGE_TIMEOUT_MS });
  const services = await openServices(config, createLogger(config.logLevel));
  if (options.reuse && (await services.stores.events.docs.estimatedDocumentCount()) === 0) {
    await services.close();
    await embedded?.stop();
    throw new Error(`run ${runId} has no events to measure (its database is gone?): run without --reuse to seed`);
  }
  await dropOrphanedRuns(services, runId, log).catch((err: Error) =>
    log(`could not look for leftovers: ${err.message}`),
  );
  const { key } = await services.apiKeys.create('bench administrator', 'administrator');
  return {
    runId,
    urls: { mongoUrl, elasticsearchUrl },
    config,
    services,
    childEnv,
    adminKey: key,
    close: async (keep) => {
      if (!keep) {
        await emptyDatabase(services);
        await services.search.indices
          .delete(
            { index: `${config.elasticsearch.indexPrefix}-*`, ignore_unavailable: true },
            { requestTimeout: 60_000 },
          )
          .catch((err: Error) => log(`could not delete the bench indexes: ${err.message}`));
      }
      await services.close();
      await embedded?.stop();
    },
  };
}
