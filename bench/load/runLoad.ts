import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runJsonChild } from '../processes';
import type { LoadResult, LoadSpec } from './spec';

let runs = 0;

/** Where loads run from: the load child (bench/load/child.ts, or compiled: bench/build.ts) and a folder for their specs. */
export interface LoadRunner {
  loadScript: string;
  workDir: string;
}

/** Runs autocannon in a child process and returns its JSON result. */
export async function runLoad(spec: LoadSpec, { loadScript, workDir }: LoadRunner): Promise<LoadResult> {
  const file = path.join(workDir, `load-${process.pid}-${++runs}.json`);
  await writeFile(file, JSON.stringify(spec));
  return runJsonChild<LoadResult>(loadScript, [file], process.env);
}
