import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import path from 'node:path';
import { PROJECT_ROOT } from '../world';
import type { LoadAnswer, LoadResult, LoadSpec } from './spec';

/** What a load generator's stderr keeps for the error of a load it could not run. */
const STDERR_KEPT = 2_000;

interface Pending {
  resolve(result: LoadResult): void;
  reject(err: Error): void;
}

/**
 * The bench's load generator: one child process (bench/load/child.ts), so that the load never
 * shares an event loop with what it measures, started once and given each load in turn.
 */
class LoadGenerator {
  private readonly child: ChildProcess;
  private stderr = '';
  private pending: Pending | null = null;
  /** Why the child can take no more loads, once it is gone. */
  private gone: Error | null = null;
  /** The load running now, which the next one waits for: loads never overlap. */
  private last: Promise<unknown> = Promise.resolve();

  constructor() {
    this.child = fork(path.join('bench', 'load', 'child.ts'), [], {
      cwd: PROJECT_ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-STDERR_KEPT);
    });
    this.child.on('message', (answer: LoadAnswer) => {
      const pending = this.pending;
      this.pending = null;
      if ('error' in answer) pending?.reject(new Error(`the load generator failed: ${answer.error}`));
      else pending?.resolve(answer.result);
    });
    this.child.once('exit', (code, signal) => this.lose(signal ?? `exit ${code}`));
    this.child.once('disconnect', () => this.lose('disconnected'));
    this.child.on('error', (err) => this.lose(err.message));
    this.idle();
  }

  get alive(): boolean {
    return this.gone === null;
  }

  run(spec: LoadSpec): Promise<LoadResult> {
    const result = this.last.then(() => this.send(spec));
    this.last = result.catch(() => undefined);
    return result;
  }

  private send(spec: LoadSpec): Promise<LoadResult> {
    if (this.gone) return Promise.reject(this.gone);
    this.busy();
    return new Promise<LoadResult>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.send(spec);
    }).finally(() => this.idle());
  }

  private lose(why: string): void {
    this.gone ??= new Error(`the load generator is gone (${why}): ${this.stderr.trim()}`);
    this.pending?.reject(this.gone);
    this.pending = null;
  }

  /** An idle generator does not keep the bench running: it ends with it (disconnected). */
  private idle(): void {
    for (const handle of this.handles()) handle?.unref();
  }

  private busy(): void {
    for (const handle of this.handles()) handle?.ref();
  }

  private handles() {
    return [this.child, this.child.channel, this.child.stderr as Socket | null];
  }
}

let generator: LoadGenerator | undefined;

/**
 * Runs a load with autocannon in the bench's load generator, started at the first load (a child
 * per load cost about a second of CPU to start, 35 of them in a smoke run), and again if it died.
 */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  if (!generator?.alive) generator = new LoadGenerator();
  return generator.run(spec);
}
