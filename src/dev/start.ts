import path from 'node:path';
import { loadEmbeddedSettings } from '../../config/embedded';
import { runApi } from '../app/apiProcess';
import { acquireServices, withServerUrls } from './embeddedServices';
import { stopLaunched } from './managedProcess';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/**
 * `npm start`: the production API start (src/app/apiProcess.ts), with development servers when
 * MONGO_URL or ELASTICSEARCH_URL is unset: those of `npm run services:start` when they run,
 * else private ones on free ports, stopped and removed with this process.
 */
runApi(async (config, log, onStop) => {
  if (config.mongo.url && config.elasticsearch.url) return config;
  const settings = loadEmbeddedSettings();
  // Servers launched before a signal or failure interrupts the startup.
  onStop(stopLaunched);
  const embedded = await acquireServices(PROJECT_ROOT, settings, 'start', (line) => log.info(line));
  onStop(embedded.stop);
  if (!config.mongo.url) console.log(memoryOnlyNotice(embedded.freshDatabase));
  return withServerUrls(config, embedded);
}).catch((err: Error) => {
  console.error(`calendar: could not start: ${err.message}`);
  process.exit(1);
});

/** The one line that says where the data goes, before a user types any in. */
function memoryOnlyNotice(ownServers: boolean): string {
  const until = ownServers ? 'when npm start stops' : 'when "npm run services:stop" stops them';
  return (
    `\nData is kept in memory only (embedded jongodb): every record and API key is lost ${until}. ` +
    'To keep it, run a real MongoDB and give its address: docker compose up -d mongo elasticsearch, then ' +
    "MONGO_URL='mongodb://127.0.0.1:27017/?directConnection=true' ELASTICSEARCH_URL=http://127.0.0.1:9200 npm start\n"
  );
}
