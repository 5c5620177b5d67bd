import { requireServerUrls, runApi } from './apiProcess';

/**
 * Production entry point (`node dist/src/app/main.js`): MONGO_URL and ELASTICSEARCH_URL must be set.
 * `npm start` runs src/dev/start.ts instead, which starts development servers when they are not.
 */
runApi(requireServerUrls).catch((err: Error) => {
  console.error(`calendar: could not start: ${err.message}`);
  process.exit(1);
});
