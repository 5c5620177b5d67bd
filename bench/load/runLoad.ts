import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../world';
import type { LoadAnswer, LoadResult, LoadSpec } from './spec';

/** What a load child's stderr keeps for the error of a load it could not run. */
const STDERR_KEPT = 2_000;

interface Generator {
  child: ChildProcess;
  stderr: string;
  /** The load running now, which the next one waits for: loads never overlap. */
  last: Promise<unknown>;
}

let generator: Generator | undefined;

function startGenerator(): Generator {
  const child = fork(path.join('bench', 'load', 'child.ts'), [], {
    cwd: PROJECT_ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const started: Generator = { child, stderr: '', last: Promise.resolve() };
  child.stderr?.on('data', (chunk: Buffer) => {
    started.stderr = (started.stderr + chunk.toString()).slice(-STDERR_KEPT);
  });
  child.once('exit', () => {
    if (generator === started) generator = undefined;
  });
  // A message sent as the child dies: its loss is reported by the load's own `exit` listener.
  child.on('error', () => undefined);
  idle(child);
  return started;
}

/** An idle generator does not keep the bench running: it exits with it. */
function idle(child: ChildProcess): void {
  child.unref();
  child.channel?.unref();
}

function send(started: Generator, spec: LoadSpec): Promise<LoadResult> {
  const { child } = started;
  if (!child.connected) return Promise.reject(new Error(`the load generator is gone: ${started.stderr.trim()}`));
  child.ref();
  child.channel?.ref();
  return new Promise<LoadResult>((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) => {
      child.off('message', onMessage);
      reject(new Error(`the load generator exited (${signal ?? `exit ${code}`}): ${started.stderr.trim()}`));
    };
    const onMessage = (answer: LoadAnswer) => {
      child.off('exit', onExit);
      if ('error' in answer) reject(new Error(`the load generator failed: ${answer.error}`));
      else resolve(answer.result);
    };
    child.once('exit', onExit);
    child.once('message', onMessage);
    child.send(spec);
  }).finally(() => idle(child));
}

/**
 * Runs a load with autocannon in the bench's load generator: one child process (bench/load/child.ts),
 * so that the load never shares an event loop with what it measures, started once and given each
 * load in turn (a child per load cost about a second of CPU to start, 35 of them in a smoke run).
 */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const started = (generator ??= startGenerator());
  const result = started.last.then(() => send(started, spec));
  started.last = result.catch(() => undefined);
  return result;
}
