import { RssSampler, spawnServer, type ServerChild } from './processes';
import type { BenchWorld } from './world';

/** The API under test and its bare baseline, both on one world's data, with the API's RSS sampled. */
export interface Servers {
  api: ServerChild;
  baseline: ServerChild;
  apiRss: RssSampler;
  stop(): Promise<void>;
}

export interface ServerSettings {
  /** The API's entry point: compiled JavaScript (as deployed) or src/main.ts. */
  script: string;
  /** Extra node flags for the API (profiling, BENCH_API_NODE_OPTIONS). */
  nodeArgs: string[];
  workDir: string;
  log: (line: string) => void;
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
    const api = await spawnServer({
      name: 'API',
      script: settings.script,
      env: world.childEnv,
      nodeArgs: settings.nodeArgs,
      logFile: `${settings.workDir}/api-${world.runId}.log`,
      readyPath: '/readyz',
    });
    children.push(api);
    const baseline = await spawnServer({
      name: 'baseline',
      script: 'bench/baseline/server.ts',
      env: world.childEnv,
      logFile: `${settings.workDir}/baseline-${world.runId}.log`,
      readyPath: '/healthz',
    });
    children.push(baseline);
    apiRss = new RssSampler(api.pid);
    return { api, baseline, apiRss, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
