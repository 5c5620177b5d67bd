import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../../config';
import { withRunningServerUrls } from '../dev/embeddedServices';
import { createLogger } from '../lib/log';
import { startSyncWorker } from '../indexer/syncWorker';
import { openServices } from '../services/container';
import { mongoUnreachable } from '../storage/mongo';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/**
 * `npm run worker`: a standalone sync worker (several may run beside the API; leases keep them
 * apart). Without MONGO_URL / ELASTICSEARCH_URL it uses the services of `npm run services:start`.
 * SIGTERM / SIGINT: the batch in flight is finished and flushed, its leases completed or released.
 */
async function main(): Promise<void> {
  if (process.argv.length > 2) {
    console.error(`calendar worker: takes no arguments, only settings (see the README's configuration table)`);
    process.exit(2);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`calendar worker: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const resolved = await withRunningServerUrls(config, PROJECT_ROOT);
  if (!resolved) throw new Error('set MONGO_URL and ELASTICSEARCH_URL, or run "npm run services:start" first');
  const services = await openServices(resolved, log).catch((err: Error) => {
    throw new Error(mongoUnreachable(resolved.mongo.url as string, err));
  });
  const worker = startSyncWorker(services);
  log.info({ owner: worker.owner }, 'sync worker started');
  // Lists serve the links the worker stored: without the API's address, they point elsewhere.
  if (!process.env.PUBLIC_API_URL)
    log.warn(
      { apiUrl: config.apiUrl },
      `PUBLIC_API_URL is not set: lists will link to ${config.apiUrl} (from HOST and PORT); give the worker the API's PUBLIC_API_URL`,
    );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'sync worker stopping');
    await worker.close();
    await services.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: Error) => {
  console.error(`calendar worker: could not start: ${err.message}`);
  process.exit(1);
});
