import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config';
import { acquireServices, type RunningServices } from './embedded/embeddedServices';
import { createLogger } from './log';
import { withoutPassword } from './ops/cli';
import { startServer } from './server';
import { openServices } from './services';
import { ensureSearchIndexes } from './search/ensureIndexes';
import { startSyncWorker } from './search/syncWorker';

const PROJECT_ROOT = path.resolve(__dirname, '..');

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
  let embedded: RunningServices | undefined;
  if (!config.mongo.url || !config.elasticsearch.url) {
    embedded = await acquireServices(PROJECT_ROOT, 'start', (line) => log.info(line));
    config = {
      ...config,
      mongo: { ...config.mongo, url: config.mongo.url ?? embedded.mongoUrl },
      elasticsearch: { ...config.elasticsearch, url: config.elasticsearch.url ?? embedded.elasticsearchUrl },
    };
  }
  const services = await openServices(config, log).catch((err: Error) => {
    throw new Error(
      `could not connect to MongoDB at ${withoutPassword(config.mongo.url as string)} (${err.message.split('\n')[0]}): start it or set MONGO_URL`,
    );
  });
  if (config.auth.bootstrapAdminKey && (await services.apiKeys.count()) === 0) {
    const { key } = await services.apiKeys.create('first administrator', 'administrator');
    console.log(`\nNo API keys existed, so one administrator key was created. It is shown only now:\n\n  ${key}\n`);
  }
  // Lists answer 503 until the indexes exist; the worker keeps trying to create them.
  await ensureSearchIndexes(services).catch((err: Error) => log.warn({ err }, 'search indexes not ready yet'));
  const worker = config.sync.inProcess ? startSyncWorker(services) : undefined;
  const server = await startServer(services, config.http.host, config.http.port);
  console.log(`calendar API listening on ${server.url}/calendar/events/v1`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await server.close();
    await worker?.close();
    await services.close();
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: Error) => {
  console.error(`calendar: could not start: ${err.message}`);
  process.exit(1);
});
