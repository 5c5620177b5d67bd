import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runJsonChild } from '../processes';
import type { LoadResult, LoadSpec } from './spec';

let runs = 0;

/** Runs autocannon in a child process (bench/load/child.ts) and returns its JSON result. */
export async function runLoad(spec: LoadSpec, workDir: string): Promise<LoadResult> {
  const file = path.join(workDir, `load-${process.pid}-${++runs}.json`);
  await writeFile(file, JSON.stringify(spec));
  return runJsonChild<LoadResult>(path.join('bench', 'load', 'child.ts'), [file], process.env);
}
