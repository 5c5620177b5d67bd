import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { loadEmbeddedSettings } from '../config/embedded';
import { acquireServices } from '../src/dev/embeddedServices';

/**
 * `npm run test:integration`: the integration suites in two mocha processes at once, sharing one
 * pair of servers (MONGO_URL / ELASTICSEARCH_URL, else those of `npm run services:start`, else
 * private ones started here and stopped at the end). Each process has a test world of its own
 * (its database name and index prefix, test/support/harness.ts), so they never see each other's
 * records. Most of a serial run waits on timers and child processes (the bench smoke run, the ops
 * scripts, the reliability suites), so two at once take about half as long on two cores.
 *
 * Arguments are passed to both processes (`-- --grep cursor`). To run chosen files, call mocha
 * itself: `npx mocha test/http/events.test.ts`.
 */
const PROJECT_ROOT = path.resolve(__dirname, '..');
const MOCHA = path.join(PROJECT_ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');

/** Suites that start API processes of their own (npm start, a restart, another database). */
const SERVER_PROCESS_SUITES = [
  'test/http/graceful-shutdown.test.ts',
  'test/http/first-run.test.ts',
  'test/http/index-identity.test.ts',
];

/** Two groups of about the same length: the suites that run child processes or servers, and the rest. */
const SHARDS: { name: string; files: string[] }[] = [
  {
    name: 'processes',
    files: [
      'test/bench/**/*.test.ts',
      'test/browser/**/*.test.ts',
      'test/http/ops-*.test.ts',
      'test/reliability/*-down.test.ts',
      ...SERVER_PROCESS_SUITES,
    ],
  },
  {
    name: 'api',
    files: [
      'test/!(unit|bench|browser)/**/*.test.ts',
      ...['--ignore', 'test/http/ops-*.test.ts'],
      ...['--ignore', 'test/reliability/*-down.test.ts'],
      ...SERVER_PROCESS_SUITES.flatMap((file) => ['--ignore', file]),
    ],
  },
];

function runShard(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [MOCHA, ...args], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const width = Math.max(...SHARDS.map((shard) => shard.name.length));
  const prefix = `[${name.padEnd(width)}] `;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${prefix}${line}\n`));
  }
  return new Promise((resolve) => {
    child.once('error', (err) => {
      process.stdout.write(`${prefix}could not start mocha: ${err.message}\n`);
      resolve(1);
    });
    child.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<void> {
  const passed = process.argv.slice(2);
  let env = process.env;
  let stop = async (): Promise<void> => undefined;
  if (!env.MONGO_URL || !env.ELASTICSEARCH_URL) {
    const services = await acquireServices(PROJECT_ROOT, loadEmbeddedSettings(), 'test', (line) =>
      console.log(`  [services] ${line}`),
    );
    env = {
      ...env,
      MONGO_URL: env.MONGO_URL ?? services.mongoUrl,
      ELASTICSEARCH_URL: env.ELASTICSEARCH_URL ?? services.elasticsearchUrl,
    };
    stop = services.stop;
  }
  const began = Date.now();
  let codes: number[];
  try {
    codes = await Promise.all(SHARDS.map((shard) => runShard(shard.name, [...shard.files, ...passed], env)));
  } finally {
    await stop();
  }
  const seconds = Math.round((Date.now() - began) / 1000);
  const failed = SHARDS.filter((_, i) => codes[i] !== 0).map((shard) => shard.name);
  console.log(
    failed.length === 0
      ? `integration tests passed in ${seconds}s`
      : `integration tests failed in ${seconds}s: see the lines marked ${failed.map((n) => `[${n}]`).join(' and ')}`,
  );
  process.exitCode = failed.length === 0 ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(`integration tests could not run: ${(err as Error).stack ?? String(err)}`);
  process.exitCode = 1;
});
