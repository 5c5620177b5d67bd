import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { BenchScripts } from './build';
import { RssSampler, spawnServer, type ServerChild } from './processes';
import { PROJECT_ROOT, type BenchWorld } from './world';

/**
 * The service as deployed (docker-compose.yml: the API, and the sync worker in a process of its
 * own) and the bare baseline, all on one world's data, with the API's RSS sampled.
 */
export interface Servers {
  api: ServerChild;
  baseline: ServerChild;
  apiRss: RssSampler;
  stop(): Promise<void>;
}

export interface ServerSettings {
  /** Entry points: compiled JavaScript (as deployed) or the TypeScript sources. */
  scripts: BenchScripts;
  /** Extra node flags for the API (profiling, BENCH_API_NODE_OPTIONS). */
  nodeArgs: string[];
  workDir: string;
  log: (line: string) => void;
  /** The worker's LOG_LEVEL (default BENCH_WORKER_LOG_LEVEL, else info): debug logs each batch's timings. */
  workerLogLevel?: string;
}

/** The node flags docker-compose.yml starts the API with: the bench measures it as deployed. */
export function deployedApiNodeFlags(): string[] {
  const compose = parse(readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8')) as {
    services: { api: { command: string[] } };
  };
  return compose.services.api.command.filter((arg) => arg.startsWith('--'));
}

export async function startServers(world: BenchWorld, settings: ServerSettings): Promise<Servers> {
  const children: ServerChild[] = [];
  let apiRss: RssSampler | undefined;
  const stop = async () => {
    apiRss?.stop();
    for (const child of children.splice(0).reverse())
      await child.stop().catch((err: Error) => settings.log(`stopping ${child.name}: ${err.message}`));
  };
  try {
    const worker = await spawnServer({
      name: 'worker',
      script: settings.scripts.worker,
      env: { ...world.childEnv, LOG_LEVEL: settings.workerLogLevel ?? process.env.BENCH_WORKER_LOG_LEVEL ?? 'info' },
      nodeArgs: process.env.BENCH_WORKER_NODE_OPTIONS?.split(' ').filter(Boolean),
      logFile: `${settings.workDir}/worker-${world.runId}.log`,
      ready: { logLine: 'sync worker started' },
    });
    children.push(worker);
    const api = await spawnServer({
      name: 'API',
      script: settings.scripts.api,
      env: { ...world.childEnv, SYNC_IN_PROCESS: 'false' },
      nodeArgs: [...deployedApiNodeFlags(), ...settings.nodeArgs],
      logFile: `${settings.workDir}/api-${world.runId}.log`,
      ready: { path: '/readyz' },
    });
    children.push(api);
    const baseline = await spawnServer({
      name: 'baseline',
      script: settings.scripts.baseline,
      env: world.childEnv,
      logFile: `${settings.workDir}/baseline-${world.runId}.log`,
      ready: { path: '/healthz' },
    });
    children.push(baseline);
    apiRss = new RssSampler(api.pid);
    return { api, baseline, apiRss, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
