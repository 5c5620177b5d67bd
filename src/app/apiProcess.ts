import { ConfigError, loadConfig, type Config } from '../../config';
import { NAMESPACE_PATH } from '../domain/recordUrls';
import { assertCanListen, PortUnavailable } from '../lib/ports';
import { createLogger, type Logger } from '../lib/log';
import { prepareSearchIndexes } from '../indexer/indexIdentity';
import { startSyncWorker, type SyncWorker } from '../indexer/syncWorker';
import { startServer, type RunningServer } from './server';
import { openServices, type Services } from '../services/container';
import { mongoUnreachable } from '../storage/mongo';

/**
 * How a launcher finds MongoDB and Elasticsearch: production reads MONGO_URL and
 * ELASTICSEARCH_URL (`requireServerUrls`); the development launcher (src/dev/start.ts) starts or
 * reuses the embedded servers. `onStop` registers what to stop after the API, on exit.
 */
export type ResolveServers = (
  config: Config,
  log: Logger,
  onStop: (stop: () => Promise<void>) => void,
) => Promise<Config>;

/** Production: both URLs must be set. */
export async function requireServerUrls(config: Config): Promise<Config> {
  const missing = [
    config.mongo.url ? undefined : 'MONGO_URL',
    config.elasticsearch.url ? undefined : 'ELASTICSEARCH_URL',
  ].filter(Boolean);
  if (missing.length > 0) {
    throw new ConfigError(
      `${missing.join(' and ')} must be set (the addresses of MongoDB and Elasticsearch); for development without them, run "npm start"`,
    );
  }
  return config;
}

/** The exit code of a failed start: 2 for a setting to fix (a bad value, a taken PORT), else 1. */
function exitCodeOf(err: unknown): number {
  return err instanceof ConfigError || err instanceof PortUnavailable ? 2 : 1;
}

/** Reads the configuration, or exits 2 with the line naming the bad setting. */
export function configOrExit(name: string): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`${name}: ${err.message}`);
    process.exit(2);
  }
}

/** What has started so far, in starting order. */
interface Started {
  services?: Services;
  worker?: SyncWorker;
  server?: RunningServer;
}

/**
 * The API process (`node dist/src/app/main.js`, `npm start`): checks that it can listen before it
 * starts anything, resolves the servers, then serves with the sync worker in process unless
 * SYNC_IN_PROCESS=false. SIGTERM / SIGINT stop everything in reverse order.
 */
export async function runApi(resolveServers: ResolveServers): Promise<void> {
  const name = 'calendar';
  const config = configOrExit(name);
  const log = createLogger(config.logLevel);
  const open: Started = {};
  const extraStops: (() => Promise<void>)[] = [];
  let stopping = false;
  // Whatever has started is stopped, also when a signal or a failure comes during startup.
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await open.server?.close();
    await open.worker?.close();
    await open.services?.close();
    for (const extra of extraStops.reverse()) await extra().catch(() => undefined);
    process.exit(code);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      log.info({ signal }, 'shutting down');
      void stop(0);
    });
  }
  try {
    await assertCanListen(config.http.host, config.http.port, 'PORT');
    const resolved = await resolveServers(config, log, (extra) => extraStops.push(extra));
    await start(resolved, log, open);
  } catch (err) {
    // A failure caused by a signal's stop is not news.
    if (!stopping) console.error(`${name}: could not start: ${(err as Error).message}`);
    await stop(exitCodeOf(err));
  }
}

async function start(config: Config, log: Logger, open: Started): Promise<void> {
  const services = await openServices(config, log).catch((err: Error) => {
    throw new Error(mongoUnreachable(config.mongo.url as string, err));
  });
  open.services = services;
  // Lists answer 503 until the indexes exist; the worker keeps trying to create them.
  await prepareSearchIndexes(services).catch((err: Error) => log.warn({ err }, 'search indexes not ready yet'));
  if (config.auth.bootstrapAdminKey && (await services.apiKeys.count()) === 0) {
    const { key } = await services.apiKeys.create('first administrator', 'administrator');
    console.log(`\nNo API keys existed, so one administrator key was created. It is shown only now:\n\n  ${key}\n`);
  }
  if (config.sync.inProcess) open.worker = startSyncWorker(services, { prepareIndexes: prepareSearchIndexes });
  open.server = await startServer(services, config.http.host, config.http.port);
  console.log(`calendar API listening on ${open.server.url}${NAMESPACE_PATH}`);
}
