import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import { startElasticsearch } from './elasticsearchServer';
import { freePort, isAlive, stopPid } from './managedProcess';
import { startJongodb } from './mongoServer';

/** Where the embedded services keep their distribution cache, data and state (gitignored). */
export const SERVICES_DIR = '.services';
const DEV_ELASTICSEARCH_PORT = 9250;
const DEV_MONGO_PORT = 27050;
const DEV_DATABASE = 'calendar';

export interface ServiceRecord {
  pid: number;
  url: string;
}

export interface ServicesState {
  elasticsearch: ServiceRecord;
  mongo: ServiceRecord;
}

/** Where the servers listen. */
export interface ServerUrls {
  elasticsearchUrl: string;
  mongoUrl: string;
}

export interface RunningServices extends ServerUrls {
  /** True when the MongoDB-protocol server was started empty by this call. */
  freshDatabase: boolean;
  /** Stops what this call started; services it merely reused keep running. */
  stop(): Promise<void>;
}

function servicesDir(projectRoot: string): string {
  return path.join(projectRoot, SERVICES_DIR);
}

function stateFile(projectRoot: string): string {
  return path.join(servicesDir(projectRoot), 'dev', 'state.json');
}

/** The services left running by `npm run services:start`, if they are still alive. */
export async function readRunningState(projectRoot: string): Promise<ServicesState | undefined> {
  const file = stateFile(projectRoot);
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(await readFile(file, 'utf8')) as ServicesState;
  return isAlive(state.elasticsearch.pid) && isAlive(state.mongo.pid) ? state : undefined;
}

async function startBoth(
  projectRoot: string,
  instanceDir: string,
  ports: { elasticsearch: number; mongo: number },
  log: (line: string) => void,
): Promise<{ state: ServicesState; stop(): Promise<void> }> {
  await mkdir(instanceDir, { recursive: true });
  const mongo = await startJongodb({ projectRoot, instanceDir, port: ports.mongo, database: DEV_DATABASE, log });
  try {
    const elasticsearch = await startElasticsearch({
      projectRoot,
      cacheDir: path.join(servicesDir(projectRoot), 'cache'),
      instanceDir: path.join(instanceDir, 'elasticsearch'),
      port: ports.elasticsearch,
      log,
    });
    return {
      state: {
        elasticsearch: { pid: elasticsearch.pid, url: elasticsearch.url },
        mongo: { pid: mongo.pid, url: mongo.url },
      },
      stop: async () => {
        await Promise.all([elasticsearch.stop(), mongo.stop()]);
      },
    };
  } catch (err) {
    await mongo.stop();
    throw err;
  }
}

/** `npm run services:start`: starts both servers detached and records them for later runs. */
export async function startDevServices(projectRoot: string, log: (line: string) => void): Promise<ServicesState> {
  const running = await readRunningState(projectRoot);
  if (running) return running;
  const { state } = await startBoth(
    projectRoot,
    path.join(servicesDir(projectRoot), 'dev'),
    { elasticsearch: DEV_ELASTICSEARCH_PORT, mongo: DEV_MONGO_PORT },
    log,
  );
  await writeFile(stateFile(projectRoot), JSON.stringify(state, null, 2));
  return state;
}

export async function stopDevServices(projectRoot: string): Promise<boolean> {
  const file = stateFile(projectRoot);
  if (!existsSync(file)) return false;
  const state = JSON.parse(await readFile(file, 'utf8')) as ServicesState;
  await Promise.all([stopPid(state.elasticsearch.pid), stopPid(state.mongo.pid)]);
  await rm(file, { force: true });
  return true;
}

/** `config` with each server URL it leaves unset (MONGO_URL, ELASTICSEARCH_URL) taken from `servers`. */
export function withServerUrls(config: Config, servers: ServerUrls): Config {
  return {
    ...config,
    mongo: { ...config.mongo, url: config.mongo.url ?? servers.mongoUrl },
    elasticsearch: { ...config.elasticsearch, url: config.elasticsearch.url ?? servers.elasticsearchUrl },
  };
}

/**
 * `config` with MONGO_URL and ELASTICSEARCH_URL, else the servers of `npm run services:start`;
 * undefined when a URL is unset and those servers do not run.
 */
export async function withRunningServerUrls(config: Config, projectRoot: string): Promise<Config | undefined> {
  if (config.mongo.url && config.elasticsearch.url) return config;
  const running = await readRunningState(projectRoot);
  return (
    running && withServerUrls(config, { mongoUrl: running.mongo.url, elasticsearchUrl: running.elasticsearch.url })
  );
}

/**
 * Services for one process (`npm start`, `npm test`): reuses those of `services:start` when they
 * run, otherwise starts private ones on free ports in a scratch folder removed on stop.
 */
export async function acquireServices(
  projectRoot: string,
  scope: string,
  log: (line: string) => void,
): Promise<RunningServices> {
  const running = await readRunningState(projectRoot);
  if (running) {
    log(`using the services started by "npm run services:start" (${running.elasticsearch.url}, ${running.mongo.url})`);
    return {
      elasticsearchUrl: running.elasticsearch.url,
      mongoUrl: running.mongo.url,
      freshDatabase: false,
      stop: async () => undefined,
    };
  }
  const instanceDir = path.join(servicesDir(projectRoot), `${scope}-${process.pid}`);
  const ports = { elasticsearch: await freePort(), mongo: await freePort() };
  const started = await startBoth(projectRoot, instanceDir, ports, log);
  return {
    elasticsearchUrl: started.state.elasticsearch.url,
    mongoUrl: started.state.mongo.url,
    freshDatabase: true,
    stop: async () => {
      await started.stop();
      await rm(instanceDir, { recursive: true, force: true });
    },
  };
}
