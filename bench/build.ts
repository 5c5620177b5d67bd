import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from './world';

/**
 * Where the compiled API goes: inside the project, so that node resolves its packages from
 * node_modules wherever the results are written.
 */
export const buildFolder = (runId: string) =>
  path.join(PROJECT_ROOT, 'node_modules', '.cache', 'calendar-bench', runId);

/**
 * The programs the bench runs: the API and its worker, the bare baseline, the reindex and its raw
 * bulk baseline, and the load generator.
 */
export interface BenchScripts {
  api: string;
  worker: string;
  baseline: string;
  reindex: string;
  bulkBaseline: string;
  load: string;
}

const ENTRY_POINTS: Record<keyof BenchScripts, string> = {
  api: 'src/app/main.ts',
  worker: 'src/app/worker.ts',
  baseline: 'bench/baseline/server.ts',
  reindex: 'bench/reindex/child.ts',
  bulkBaseline: 'bench/reindex/bulkBaseline.ts',
  load: 'bench/load/child.ts',
};

/** The TypeScript sources themselves, run through tsx (`--api source`). */
export const SOURCE_SCRIPTS: BenchScripts = ENTRY_POINTS;

/**
 * Compiles the API the way `npm run build` does (tsc to CommonJS, run by plain node as the
 * Dockerfile does), into `outDir`: the bench measures the deployed artifact, not the TypeScript
 * loader (tsx keeps ~30 MB more in memory). The bench's other programs are compiled with them, as
 * `npm run build` compiles the scripts: each load is a process of its own, which tsx would start
 * with half a second more CPU. Only these import graphs, without type checks.
 */
export async function buildApi(outDir: string): Promise<BenchScripts> {
  await rm(outDir, { recursive: true, force: true });
  const tsc = path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [
    tsc,
    ...Object.values(ENTRY_POINTS),
    '--outDir',
    outDir,
    '--rootDir',
    '.',
    '--target',
    'ES2022',
    '--module',
    'commonjs',
  ];
  args.push('--moduleResolution', 'node', '--esModuleInterop', '--resolveJsonModule', '--skipLibCheck', '--noCheck');
  const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`building the API failed (exit ${code}): ${output.slice(-2000)}`);
  return Object.fromEntries(
    Object.entries(ENTRY_POINTS).map(([name, source]) => [name, path.join(outDir, source.replace(/\.ts$/, '.js'))]),
  ) as unknown as BenchScripts;
}
