import path from 'node:path';
import { readRunningState, startDevServices, stopDevServices } from '../src/dev/embeddedServices';

const projectRoot = path.resolve(__dirname, '..');
const log = (line: string) => console.log(line);

async function main(command: string | undefined): Promise<number> {
  switch (command) {
    case 'start': {
      const state = await startDevServices(projectRoot, log);
      console.log(`Elasticsearch: ${state.elasticsearch.url} (pid ${state.elasticsearch.pid})`);
      console.log(`MongoDB protocol (jongodb): ${state.mongo.url} (pid ${state.mongo.pid})`);
      console.log('npm start and npm test now use these until "npm run services:stop".');
      return 0;
    }
    case 'stop':
      console.log((await stopDevServices(projectRoot)) ? 'services stopped' : 'no services were recorded as running');
      return 0;
    case 'status': {
      const state = await readRunningState(projectRoot);
      if (!state) {
        console.log('not running (start them with "npm run services:start")');
        return 1;
      }
      console.log(`Elasticsearch: ${state.elasticsearch.url} (pid ${state.elasticsearch.pid})`);
      console.log(`MongoDB protocol (jongodb): ${state.mongo.url} (pid ${state.mongo.pid})`);
      return 0;
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
    process.exit(1);
  },
);
