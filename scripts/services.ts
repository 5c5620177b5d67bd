import path from 'node:path';
import { ConfigError } from '../config';
import { loadEmbeddedSettings } from '../config/embedded';
import { servicesStatus, startDevServices, stopDevServices } from '../src/dev/embeddedServices';
import { PortUnavailable } from '../src/lib/ports';

const projectRoot = path.resolve(__dirname, '..');
const log = (line: string) => console.log(line);

/**
 * `npm run services:start|stop|status`: the development servers (jongodb, Elasticsearch) on
 * EMBEDDED_MONGO_PORT / EMBEDDED_ELASTICSEARCH_PORT, recorded in `.services/<EMBEDDED_INSTANCE>/`.
 * Exit codes: 0 done (status: both running), 1 a server failed (status: not both running), 2 a
 * setting to fix (a taken port).
 */
async function main(command: string | undefined): Promise<number> {
  const settings = loadEmbeddedSettings();
  switch (command) {
    case 'start': {
      const { state, reused } = await startDevServices(projectRoot, settings, log);
      if (reused) console.log('already running:');
      console.log(`Elasticsearch: ${state.elasticsearch.url} (pid ${state.elasticsearch.pid})`);
      console.log(`MongoDB protocol (jongodb): ${state.mongo.url} (pid ${state.mongo.pid})`);
      console.log('npm start and npm test now use these until "npm run services:stop".');
      console.log('jongodb keeps data in memory only: it is lost when the services stop.');
      return 0;
    }
    case 'stop':
      console.log(
        (await stopDevServices(projectRoot, settings, log)) ? 'services stopped' : 'no services were recorded',
      );
      return 0;
    case 'status': {
      const statuses = await servicesStatus(projectRoot, settings);
      if (!statuses) {
        console.log('not running (start them with "npm run services:start")');
        return 1;
      }
      for (const server of statuses) {
        const state = !server.running
          ? 'not running (its process is gone)'
          : server.answering
            ? 'running'
            : 'its process runs but does not answer';
        console.log(`${server.name}: ${state}: ${server.url} (pid ${server.pid})`);
      }
      if (statuses.every((s) => s.running && s.answering)) return 0;
      console.log('not all running: "npm run services:start" restarts them (with empty data)');
      return 1;
    }
    default:
      console.error('usage: npm run services:start | services:stop | services:status');
      return 2;
  }
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`services: ${err.message}`);
    process.exit(err instanceof ConfigError || err instanceof PortUnavailable ? 2 : 1);
  },
);
