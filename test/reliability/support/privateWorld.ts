import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../../../config';
import { createLogger } from '../../../src/lib/log';
import { waitForSearchIndexes } from '../../../src/search/ensureIndexes';
import { startSyncWorker, type SyncWorker } from '../../../src/indexer/syncWorker';
import { startServer, type RunningServer } from '../../../src/app/server';
import { openServices, type Services } from '../../../src/services/container';

/** An API (and optionally its in-process sync worker) over servers a test chose. */
export interface PrivateWorld {
  config: Config;
  services: Services;
  server: RunningServer;
  worker: SyncWorker | undefined;
  baseUrl: string;
  adminKey: string;
  /** Stops the API and worker, deletes this world's indexes and closes its connections. */
  close(): Promise<void>;
}

export interface PrivateWorldOptions {
  mongoUrl: string;
  elasticsearchUrl: string;
  /** Run the sync worker in-process (default true). */
  worker?: boolean;
  /** Extra environment for loadConfig (timeouts...). */
  env?: Record<string, string>;
}

export function runId(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

export function worldConfig(options: PrivateWorldOptions, id = runId('r')): Config {
  return loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    MONGO_URL: options.mongoUrl,
    ELASTICSEARCH_URL: options.elasticsearchUrl,
    MONGO_DATABASE: `calendar_${id}`,
    INDEX_PREFIX: `calendar-${id}`,
    PUBLIC_API_URL: 'http://api.calendar.test',
    SITE_URL: 'http://calendar.test',
    LOG_LEVEL: process.env.RELIABILITY_LOG_LEVEL ?? 'silent',
    ...options.env,
  });
}

export async function openPrivateWorld(options: PrivateWorldOptions): Promise<PrivateWorld> {
  const config = worldConfig(options);
  const services = await openServices(config, createLogger(config.logLevel));
  await waitForSearchIndexes(services);
  const worker = options.worker === false ? undefined : startSyncWorker(services);
  const server = await startServer(services, '127.0.0.1', 0);
  const { key } = await services.apiKeys.create('reliability administrator', 'administrator');
  return {
    config,
    services,
    server,
    worker,
    baseUrl: server.url,
    adminKey: key,
    close: async () => {
      await server.close();
      await worker?.close();
      await services.search.indices
        .delete({ index: `${config.elasticsearch.indexPrefix}-*`, ignore_unavailable: true })
        .catch(() => undefined);
      await services.close();
    },
  };
}
