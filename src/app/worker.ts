import { requireServerUrls } from './apiProcess';
import { exitOnStartFailure, runWorker } from './workerProcess';

/** Production entry point (`node dist/src/app/worker.js`); `npm run worker` runs src/dev/worker.ts. */
runWorker(requireServerUrls).catch(exitOnStartFailure);
