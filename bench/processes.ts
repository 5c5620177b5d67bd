import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../src/dev/managedProcess';
import { PROJECT_ROOT } from './world';

/** TypeScript sources run through tsx; compiled JavaScript (bench/build.ts) as deployed. */
const loaderFor = (script: string): string[] => (script.endsWith('.ts') ? ['--import', 'tsx'] : []);

/** A server child (the API or the baseline) listening on `url`. */
export interface ServerChild {
  name: string;
  url: string;
  pid: number;
  /** SIGTERM and wait: the API finishes in-flight work and writes its CPU profile on exit. */
  stop(): Promise<void>;
}

export interface SpawnServerOptions {
  name: string;
  /** Script relative to the project root: TypeScript (run with the tsx loader) or compiled JavaScript. */
  script: string;
  env: NodeJS.ProcessEnv;
  nodeArgs?: string[];
  /** Where the child's stdout and stderr go. */
  logFile: string;
  /** Path answering 200 once the server can serve, or a line its log shows once it works (no HTTP). */
  ready: { path: string } | { logLine: string };
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function isReady(url: string, options: SpawnServerOptions): Promise<boolean> {
  if ('logLine' in options.ready) {
    const text = await readFile(options.logFile, 'utf8').catch(() => '');
    return text.includes(options.ready.logLine);
  }
  return fetch(`${url}${options.ready.path}`)
    .then((res) => res.ok)
    .catch(() => false);
}

/** Node runs the TypeScript itself (tsx loader, no wrapper process): the pid is the server's own. */
export async function spawnServer(options: SpawnServerOptions): Promise<ServerChild> {
  const port = await freePort();
  const log = createWriteStream(options.logFile);
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loaderFor(options.script), options.script], {
    cwd: PROJECT_ROOT,
    env: { ...options.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) {
      const output = await logTail(options.logFile);
      throw new Error(`${options.name} exited during startup (code ${child.exitCode}): ${output}`);
    }
    if (await isReady(url, options)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} did not become ready; see ${options.logFile}`);
    }
    await sleep(200);
  }
  return {
    name: options.name,
    url,
    pid: child.pid as number,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited(child);
        clearTimeout(killer);
      }
      log.end();
    },
  };
}

/** The last lines a child wrote, for failure messages (its log file goes with the work folder). */
async function logTail(file: string): Promise<string> {
  await sleep(100);
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-15).join('\n') || '(no output)';
}

/** Resident set size of a process in bytes (Linux), or null once it is gone. */
export async function rssOf(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `intervalMs`; `take()` returns the peak since the last take. */
export class RssSampler {
  private peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 100,
  ) {
    this.timer = setInterval(() => void this.sample(), intervalMs);
  }

  private async sample(): Promise<void> {
    const rss = await rssOf(this.pid);
    if (rss !== null && rss > this.peak) this.peak = rss;
  }

  async take(): Promise<number> {
    await this.sample();
    const peak = this.peak;
    this.peak = 0;
    return peak;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export function resultsPath(out: string, ...parts: string[]): string {
  return path.resolve(PROJECT_ROOT, out, ...parts);
}

/** Runs a script (TypeScript, or compiled by bench/build.ts) in a child node process and parses the JSON line it prints last. */
export async function runJsonChild<T>(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<T> {
  const child = spawn(process.execPath, [...loaderFor(script), script, ...args], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = stdout.trim().split('\n').pop();
  if (code !== 0 || !line) throw new Error(`${script} failed (exit ${code}): ${stderr.trim().slice(-2000)}`);
  return JSON.parse(line) as T;
}
