import { spawn, type ChildProcess } from 'node:child_process';
import type { Config } from '../../../config';
import { PROJECT_ROOT } from './privateServers';

export interface Child {
  process: ChildProcess;
  /** The last 20,000 characters written (for failure messages). */
  output(): string;
  /** The last 4 MB written: a log searched for one request's lines. */
  log(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
}

/** The environment that makes `src/app/main.ts` / `src/app/worker.ts` use `config`'s servers, database and indexes. */
export function envOf(config: Config, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    MONGO_URL: config.mongo.url,
    ELASTICSEARCH_URL: config.elasticsearch.url,
    MONGO_DATABASE: config.mongo.database,
    INDEX_PREFIX: config.elasticsearch.indexPrefix,
    PUBLIC_API_URL: config.apiUrl,
    SITE_URL: config.siteUrl,
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** `node --import tsx <script>` as a child process, its output kept for failure messages. */
export function spawnScript(script: string, env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    process: child,
    output: () => output.slice(-20_000),
    log: () => output,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
}

export function kill(child: Child | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child?.alive()) child.process.kill(signal);
}
