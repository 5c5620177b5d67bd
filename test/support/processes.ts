import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ScriptResult } from './scripts';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/**
 * Runs a TypeScript entry point (`src/dev/start.ts`, `scripts/services.ts`) as npm would, with
 * only PATH and `env`: no MONGO_URL / ELASTICSEARCH_URL unless given, as on a first run.
 */
export function runEntry(file: string, args: string[], env: Record<string, string>, timeoutMs = 120_000) {
  return new Promise<ScriptResult>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', file, ...args],
      { cwd: PROJECT_ROOT, env: { PATH: process.env.PATH, ...env }, timeout: timeoutMs },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A long-running entry point, its output collected as it comes. */
export interface Started {
  child: ChildProcess;
  output(): string;
  /** Resolves with the output once `pattern` appears in it (rejects if the process exits first). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

export function startEntry(file: string, env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    waitFor: (pattern, timeoutMs = 180_000) =>
      new Promise((resolve, reject) => {
        const deadline = Date.now() + timeoutMs;
        const look = () => {
          const match = pattern.exec(output);
          if (match) return resolve(match);
          if (child.exitCode !== null)
            return reject(new Error(`exited ${child.exitCode} before ${pattern}:\n${output}`));
          if (Date.now() > deadline) return reject(new Error(`no ${pattern} in time:\n${output}`));
          setTimeout(look, 100);
        };
        look();
      }),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
