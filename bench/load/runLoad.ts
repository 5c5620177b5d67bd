import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../world';
import type { LoadResult, LoadSpec } from './spec';

let runs = 0;

/** Runs autocannon in a child process (bench/load/child.ts) and returns its JSON result. */
export async function runLoad(spec: LoadSpec, workDir: string): Promise<LoadResult> {
  const file = path.join(workDir, `load-${process.pid}-${++runs}.json`);
  await writeFile(file, JSON.stringify(spec));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'load', 'child.ts'), file], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = stdout.trim().split('\n').pop();
  if (code !== 0 || !line) throw new Error(`load child failed (exit ${code}): ${stderr.trim().slice(-2000)}`);
  return JSON.parse(line) as LoadResult;
}
