import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../../config';
import { acquireServices, withServerUrls, type RunningServices } from '../dev/embeddedServices';
import { stopLaunched } from '../dev/managedProcess';
import { createLogger, type Logger } from '../lib/log';
import { mongoUnreachable } from '../storage/mongo';
import { startServer, type RunningServer } from './server';
import { openServices, type Services } from '../services/container';
import { ensureSearchIndexes } from '../search/ensureIndexes';
import { startSyncWorker, type SyncWorker } from '../indexer/syncWorker';
import { NAMESPACE_PATH } from '../domain/recordUrls';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** What has started so far, in starting order. */
interface Started {
  embedded?: RunningServices;
  services?: Services;
  worker?: SyncWorker;
  server?: RunningServer;
}

/** `npm start`: embedded services when no URLs are configured, then the API and the sync worker. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`calendar: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const open: Started = {};
  let stopping = false;
  // Whatever has started is stopped, also when a signal or a failure comes during startup: the
  // embedded servers run in their own process groups and would outlive this process.
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await open.server?.close();
    await open.worker?.close();
    await open.services?.close();
    await open.embedded?.stop();
    await stopLaunched();
    process.exit(code);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      log.info({ signal }, 'shutting down');
      void stop(0);
    });
  }
  try {
    await start(config, log, open);
  } catch (err) {
    // A failure caused by a signal's stop is not news.
    if (!stopping) console.error(`calendar: could not start: ${(err as Error).message}`);
    await stop(1);
  }
}

async function start(config: Config, log: Logger, open: Started): Promise<void> {
  if (!config.mongo.url || !config.elasticsearch.url) {
    const embedded = await acquireServices(PROJECT_ROOT, 'start', (line) => log.info(line));
    open.embedded = embedded;
    config = withServerUrls(config, embedded);
  }
  const services = await openServices(config, log).catch((err: Error) => {
    throw new Error(mongoUnreachable(config.mongo.url as string, err));
  });
  open.services = services;
  if (config.auth.bootstrapAdminKey && (await services.apiKeys.count()) === 0) {
    const { key } = await services.apiKeys.create('first administrator', 'administrator');
    console.log(`\nNo API keys existed, so one administrator key was created. It is shown only now:\n\n  ${key}\n`);
  }
  // Lists answer 503 until the indexes exist; the worker keeps trying to create them.
  await ensureSearchIndexes(services).catch((err: Error) => log.warn({ err }, 'search indexes not ready yet'));
  if (config.sync.inProcess) open.worker = startSyncWorker(services);
  open.server = await startServer(services, config.http.host, config.http.port);
  console.log(`calendar API listening on ${open.server.url}${NAMESPACE_PATH}`);
}

main().catch((err: Error) => {
  console.error(`calendar: could not start: ${err.message}`);
  process.exit(1);
});
