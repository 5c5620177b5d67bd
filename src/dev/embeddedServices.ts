import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../../config';
import type { EmbeddedSettings } from '../../config/embedded';
import { assertCanListen } from '../lib/ports';
import { answersAs, startElasticsearch } from './elasticsearchServer';
import { freePort, isRunning, stopPid } from './managedProcess';
import { startJongodb } from './mongoServer';

/** Where the embedded services keep their distribution cache, data and state (gitignored). */
export const SERVICES_DIR = '.services';
const DEV_DATABASE = 'calendar';

export interface ServiceRecord {
  pid: number;
  url: string;
}

export interface ServicesState {
  elasticsearch: ServiceRecord & { nodeName: string };
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

/** How one recorded server is doing, as `services:status` reports it. */
export interface ServerStatus {
  name: string;
  pid: number;
  url: string;
  /** Its process is alive (and runs the program it was started as). */
  running: boolean;
  /** It answers at its address, as itself. */
  answering: boolean;
}

function servicesDir(projectRoot: string): string {
  return path.join(projectRoot, SERVICES_DIR);
}

function instanceDir(projectRoot: string, instance: string): string {
  return path.join(servicesDir(projectRoot), instance);
}

function stateFile(projectRoot: string, instance: string): string {
  return path.join(instanceDir(projectRoot, instance), 'state.json');
}

/** The embedded Elasticsearch keeps its indexes here, across restarts; jongodb keeps nothing. */
export function indexDataDir(projectRoot: string, instance: string): string {
  return path.join(instanceDir(projectRoot, instance), 'elasticsearch', 'data');
}

async function readState(projectRoot: string, instance: string): Promise<ServicesState | undefined> {
  const file = stateFile(projectRoot, instance);
  if (!existsSync(file)) return undefined;
  return JSON.parse(await readFile(file, 'utf8')) as ServicesState;
}

function acceptsConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function statusOf(state: ServicesState): Promise<ServerStatus[]> {
  const es = state.elasticsearch;
  const esRunning = isRunning(es.pid, 'elasticsearch');
  const mongoRunning = isRunning(state.mongo.pid, 'jongodb');
  return [
    {
      name: 'Elasticsearch',
      ...es,
      running: esRunning,
      answering: esRunning && (await answersAs(es.url, es.nodeName)),
    },
    {
      name: 'MongoDB protocol (jongodb)',
      ...state.mongo,
      running: mongoRunning,
      answering: mongoRunning && (await acceptsConnections(state.mongo.url)),
    },
  ];
}

/** The servers `npm run services:start` recorded, each checked; undefined when none are recorded. */
export async function servicesStatus(
  projectRoot: string,
  settings: EmbeddedSettings,
): Promise<ServerStatus[] | undefined> {
  const state = await readState(projectRoot, settings.instance);
  return state && statusOf(state);
}

/** The services left running by `npm run services:start`, if both are still alive. */
export async function readRunningState(
  projectRoot: string,
  settings: EmbeddedSettings,
): Promise<ServicesState | undefined> {
  const state = await readState(projectRoot, settings.instance);
  return state && isRunning(state.elasticsearch.pid, 'elasticsearch') && isRunning(state.mongo.pid, 'jongodb')
    ? state
    : undefined;
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
        elasticsearch: { pid: elasticsearch.pid, url: elasticsearch.url, nodeName: elasticsearch.nodeName },
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

/** Index data left beside a jongodb that is gone belongs to a database nobody has any more. */
async function discardIndexData(projectRoot: string, instance: string, log: (line: string) => void): Promise<void> {
  const dir = indexDataDir(projectRoot, instance);
  if (!existsSync(dir)) return;
  log(
    `discarding the Elasticsearch data in ${path.relative(projectRoot, dir)}: it indexed a jongodb database that is gone`,
  );
  await rm(dir, { recursive: true, force: true });
}

/** Stops the recorded servers still running (never another program that reuses a pid). */
async function stopRecorded(statuses: ServerStatus[], log: (line: string) => void, why: string): Promise<void> {
  for (const server of statuses.filter((s) => s.running)) log(`stopping ${server.name} (pid ${server.pid})${why}`);
  await Promise.all(statuses.filter((s) => s.running).map((s) => stopPid(s.pid)));
}

/**
 * `npm run services:start`: starts both servers detached on EMBEDDED_ELASTICSEARCH_PORT and
 * EMBEDDED_MONGO_PORT and records them for later runs. Refuses a taken port before starting
 * anything; succeeds only once both servers it started are alive and answering as themselves.
 * `reused`: they were running already.
 */
export async function startDevServices(
  projectRoot: string,
  settings: EmbeddedSettings,
  log: (line: string) => void,
): Promise<{ state: ServicesState; reused: boolean }> {
  const recorded = await readState(projectRoot, settings.instance);
  if (recorded) {
    const statuses = await statusOf(recorded);
    if (statuses.every((s) => s.running && s.answering)) return { state: recorded, reused: true };
    // A lone Elasticsearch indexes a database that is gone; a lone jongodb is restarted with it.
    await stopRecorded(statuses, log, ': its partner is gone, both start again');
    await rm(stateFile(projectRoot, settings.instance), { force: true });
  }
  await assertCanListen('127.0.0.1', settings.elasticsearchPort, 'EMBEDDED_ELASTICSEARCH_PORT');
  await assertCanListen('127.0.0.1', settings.mongoPort, 'EMBEDDED_MONGO_PORT');
  await discardIndexData(projectRoot, settings.instance, log);
  const { state } = await startBoth(
    projectRoot,
    instanceDir(projectRoot, settings.instance),
    { elasticsearch: settings.elasticsearchPort, mongo: settings.mongoPort },
    log,
  );
  await writeFile(stateFile(projectRoot, settings.instance), JSON.stringify(state, null, 2));
  return { state, reused: false };
}

/**
 * `npm run services:stop`: stops the recorded servers and discards the index data (the jongodb
 * database it indexed goes with the server). False when none were recorded.
 */
export async function stopDevServices(
  projectRoot: string,
  settings: EmbeddedSettings,
  log: (line: string) => void,
): Promise<boolean> {
  const recorded = await readState(projectRoot, settings.instance);
  if (!recorded) return false;
  await stopRecorded(await statusOf(recorded), log, '');
  await rm(stateFile(projectRoot, settings.instance), { force: true });
  await discardIndexData(projectRoot, settings.instance, log);
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
export async function withRunningServerUrls(
  config: Config,
  projectRoot: string,
  settings: EmbeddedSettings,
): Promise<Config | undefined> {
  if (config.mongo.url && config.elasticsearch.url) return config;
  const running = await readRunningState(projectRoot, settings);
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
  settings: EmbeddedSettings,
  scope: string,
  log: (line: string) => void,
): Promise<RunningServices> {
  const running = await readRunningState(projectRoot, settings);
  if (running) {
    log(`using the services started by "npm run services:start" (${running.elasticsearch.url}, ${running.mongo.url})`);
    return {
      elasticsearchUrl: running.elasticsearch.url,
      mongoUrl: running.mongo.url,
      freshDatabase: false,
      stop: async () => undefined,
    };
  }
  const scratch = path.join(servicesDir(projectRoot), `${scope}-${process.pid}`);
  const ports = { elasticsearch: await freePort(), mongo: await freePort() };
  const started = await startBoth(projectRoot, scratch, ports, log);
  return {
    elasticsearchUrl: started.state.elasticsearch.url,
    mongoUrl: started.state.mongo.url,
    freshDatabase: true,
    stop: async () => {
      await started.stop();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
