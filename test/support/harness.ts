import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadConfig, type Config } from '../../config';
import { acquireServices, type RunningServices } from '../../src/dev/embeddedServices';
import { freePort } from '../../src/dev/managedProcess';
import { createLogger } from '../../src/lib/log';
import { startServer, type RunningServer } from '../../src/app/server';
import { openServices, type Services } from '../../src/services/container';
import { emptyDatabase } from '../../src/tools/emptyDatabase';
import { startSyncWorker, type SyncWorker } from '../../src/indexer/syncWorker';
import { loadEmbeddedSettings } from '../../config/embedded';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** One isolated test world: its own database name and index prefix on the shared servers. */
export interface TestWorld {
  config: Config;
  services: Services;
  server: RunningServer;
  /** The in-process sync worker (tests may stop it and start others). */
  worker: SyncWorker;
  baseUrl: string;
  adminKey: string;
}

let embedded: RunningServices | undefined;
let world: TestWorld | undefined;

export function testWorld(): TestWorld {
  if (!world) {
    throw new Error('the test world is not started: unit tests (test/unit) run without it, see test/support/setup.ts');
  }
  return world;
}

/**
 * Runs `body` with the world's sync worker stopped (changes wait in the queue, or for workers the
 * test makes), and starts it again whatever happens.
 */
export async function whileWorkerStopped<T>(body: () => Promise<T>): Promise<T> {
  const { worker } = testWorld();
  await worker.stop();
  try {
    return await body();
  } finally {
    worker.start();
  }
}

export async function startWorld(): Promise<TestWorld> {
  const runId = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  let mongoUrl = process.env.MONGO_URL;
  let elasticsearchUrl = process.env.ELASTICSEARCH_URL;
  if (!mongoUrl || !elasticsearchUrl) {
    embedded = await acquireServices(PROJECT_ROOT, loadEmbeddedSettings(), 'test', (line) =>
      console.log(`  [services] ${line}`),
    );
    mongoUrl ??= embedded.mongoUrl;
    elasticsearchUrl ??= embedded.elasticsearchUrl;
  }
  // Links in answers start with PUBLIC_API_URL: the address the server really listens on.
  const port = await freePort();
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    MONGO_URL: mongoUrl,
    ELASTICSEARCH_URL: elasticsearchUrl,
    MONGO_DATABASE: `calendar_${runId}`,
    INDEX_PREFIX: `calendar-${runId}`,
    PUBLIC_API_URL: `http://127.0.0.1:${port}`,
    SITE_URL: 'http://calendar.test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    // The suites run beside each other and the bench's smoke run on a busy machine: a slow search
    // there is not the 503 a test would see. Tests of timeouts set their own (search-timeouts.test.ts).
    ELASTICSEARCH_TIMEOUT_MS: process.env.ELASTICSEARCH_TIMEOUT_MS ?? '10000',
    // Likewise a write indexed past the contract's 5 s is not what the tests waiting for it check.
    WAIT_FOR_INDEX_MS: process.env.WAIT_FOR_INDEX_MS ?? '20000',
  });
  const services = await openServices(config, createLogger(config.logLevel));
  // The worker creates the search indexes in the background: tests that never list do not wait.
  const worker = startSyncWorker(services);
  const server = await startServer(services, '127.0.0.1', port);
  const { key } = await services.apiKeys.create('test administrator', 'administrator');
  world = { config, services, server, worker, baseUrl: server.url, adminKey: key };
  return world;
}

export async function stopWorld(): Promise<void> {
  if (world) {
    await world.server.close();
    await world.worker.close();
    await emptyDatabase(world.services);
    await world.services.search.indices
      .delete({ index: `${world.config.elasticsearch.indexPrefix}-*`, ignore_unavailable: true })
      .catch(() => undefined);
    await world.services.close();
    world = undefined;
  }
  await embedded?.stop();
  embedded = undefined;
}
