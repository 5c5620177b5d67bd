import type { Config } from '../../config';
import { configOrExit } from './apiProcess';
import { createLogger } from '../lib/log';
import { prepareSearchIndexes } from '../indexer/indexIdentity';
import { startSyncWorker } from '../indexer/syncWorker';
import { openServices } from '../services/container';
import { mongoUnreachable } from '../storage/mongo';

/**
 * A standalone sync worker (several may run beside the API; leases keep them apart), over the
 * servers `resolveServers` gives. SIGTERM / SIGINT: the batch in flight is finished and flushed,
 * its leases completed or released.
 */
export async function runWorker(resolveServers: (config: Config) => Promise<Config>): Promise<void> {
  if (process.argv.length > 2) {
    console.error(`calendar worker: takes no arguments, only settings (see the README's configuration table)`);
    process.exit(2);
  }
  const config = configOrExit('calendar worker');
  const log = createLogger(config.logLevel);
  const resolved = await resolveServers(config);
  const services = await openServices(resolved, log).catch((err: Error) => {
    throw new Error(mongoUnreachable(resolved.mongo.url as string, err));
  });
  const worker = startSyncWorker(services, { prepareIndexes: prepareSearchIndexes });
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

/** How the worker's entry points end on a failure to start. */
export function exitOnStartFailure(err: Error): never {
  console.error(`calendar worker: could not start: ${err.message}`);
  process.exit(err.name === 'ConfigError' ? 2 : 1);
}
