import path from 'node:path';
import { loadEmbeddedSettings } from '../../config/embedded';
import { withRunningServerUrls } from './embeddedServices';
import { exitOnStartFailure, runWorker } from '../app/workerProcess';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** `npm run worker`: without MONGO_URL / ELASTICSEARCH_URL, the servers of `npm run services:start`. */
runWorker(async (config) => {
  const resolved = await withRunningServerUrls(config, PROJECT_ROOT, loadEmbeddedSettings());
  if (!resolved) throw new Error('set MONGO_URL and ELASTICSEARCH_URL, or run "npm run services:start" first');
  return resolved;
}).catch(exitOnStartFailure);
