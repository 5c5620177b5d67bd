/**
 * `npm run bench:reindex-memory -- [--small 10000] [--large 100000] [--batch 500]`
 *
 * Shows that a reindex runs in bounded memory: rebuilding the event indexes of `--large` records
 * must peak (RSS, and live heap after collection) close to `--small` records (ratio ≤ 1.5).
 * Each size gets its own database and index prefix (`bench_reindex_mem_N`), seeded once with
 * seedDemo (index: none) and reused by later runs; each reindex runs in a fresh child process
 * (heap capped at 256 MB) so its peak RSS (getrusage maxrss) is the reindex's alone. Uses
 * MONGO_URL / ELASTICSEARCH_URL, else the services of `npm run services:start`. Exit 1 when
 * memory grows. On the embedded jongodb, seeding 100,000 events takes many hours (its cost per
 * insert grows with the square of the collection's size): try `--small 2000 --large 20000` there.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { readRunningState } from '../src/dev/embeddedServices';
import { createLogger } from '../src/lib/log';
import { seedDemo } from '../src/tools/demo/demoData';
import { progressTo } from '../src/indexer/progress';
import { reindex } from '../src/indexer/reindex/reindex';
import { openServices, type Services } from '../src/services/container';
import { loadEmbeddedSettings } from '../config/embedded';

const PROJECT_ROOT = path.resolve(__dirname, '..');
const MAX_GROWTH = 1.5;
const SEED_CHUNK = 5_000;

interface Measure {
  records: number;
  seconds: number;
  peakRssMb: number;
  peakLiveHeapMb: number;
}

/**
 * The children run with a capped heap: V8 otherwise lets garbage pile up longer in a longer run,
 * and a reindex whose memory grew with the records would run out of it at scale.
 */
const CHILD_NODE_OPTIONS = ['--expose-gc', '--max-old-space-size=256'];

async function withServices<T>(records: number, use: (services: Services) => Promise<T>): Promise<T> {
  const running = await readRunningState(PROJECT_ROOT, loadEmbeddedSettings());
  const config = loadConfig({
    ...process.env,
    MONGO_URL: process.env.MONGO_URL ?? running?.mongo.url,
    ELASTICSEARCH_URL: process.env.ELASTICSEARCH_URL ?? running?.elasticsearch.url,
    MONGO_DATABASE: `bench_reindex_mem_${records}`,
    INDEX_PREFIX: `bench-reindex-mem-${records}`,
    MONGO_TIMEOUT_MS: '30000',
  });
  if (!config.mongo.url || !config.elasticsearch.url)
    throw new Error('set MONGO_URL and ELASTICSEARCH_URL, or run "npm run services:start" first');
  const services = await openServices(config, createLogger('warn'));
  try {
    return await use(services);
  } finally {
    await services.close();
  }
}

/**
 * Child: rebuild the event indexes and report the peak RSS and the peak live heap (measured
 * after a forced collection at each batch end: what the reindex really holds, whatever the
 * collector's laziness).
 */
async function child(records: number, batchSize: number): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  let peakLiveHeap = 0;
  const result = await withServices(records, (services) =>
    reindex(services, {
      kinds: ['event'],
      batchSize,
      progress: progressTo(),
      onBatch: () => {
        gc?.();
        peakLiveHeap = Math.max(peakLiveHeap, process.memoryUsage().heapUsed);
      },
    }),
  );
  const measure: Measure = {
    records: result.records,
    seconds: result.seconds,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    peakLiveHeapMb: peakLiveHeap / 1048576,
  };
  process.stdout.write(`${JSON.stringify(measure)}\n`);
}

async function ensureSeeded(records: number): Promise<void> {
  await withServices(records, async (services) => {
    const have = await services.stores.events.countRecords();
    if (have >= records) return;
    console.error(`seeding ${records - have} events into bench_reindex_mem_${records} (once; reused by later runs)…`);
    const started = Date.now();
    await seedDemo(services, {
      events: records - have,
      index: 'none',
      // jongodb's cost per insert call grows with the collection's size: fewer, larger calls.
      chunkSize: SEED_CHUNK,
      onProgress: (done, total) =>
        done % 5000 === 0 && console.error(`  ${done}/${total} (${Math.round((Date.now() - started) / 1000)} s)`),
    });
  });
}

function measureInChild(records: number, batchSize: number): Promise<Measure> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...CHILD_NODE_OPTIONS, '--import', 'tsx', __filename, '--child', String(records), '--batch', String(batchSize)],
      { cwd: PROJECT_ROOT, env: process.env, maxBuffer: 10 * 1024 * 1024 },
      (err, stdout, stderr) => {
        process.stderr.write(stderr);
        if (err)
          reject(new Error(`reindex of ${records} records failed: ${stderr.trim().split('\n').pop() ?? err.message}`));
        else resolve(JSON.parse(stdout.trim().split('\n').pop() as string) as Measure);
      },
    );
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      small: { type: 'string' },
      large: { type: 'string' },
      batch: { type: 'string' },
      child: { type: 'string' },
    },
    strict: true,
  });
  const batchSize = Number(values.batch ?? 500);
  if (values.child) {
    await child(Number(values.child), batchSize);
    return 0;
  }
  const sizes = [Number(values.small ?? 10_000), Number(values.large ?? 100_000)];
  for (const size of sizes) await ensureSeeded(size);
  const [small, large] = [await measureInChild(sizes[0]!, batchSize), await measureInChild(sizes[1]!, batchSize)] as [
    Measure,
    Measure,
  ];
  console.log('records   seconds  records/s  peak RSS (MB)  peak live heap (MB)');
  for (const m of [small, large]) {
    const cells = [
      m.records,
      m.seconds.toFixed(1),
      (m.records / m.seconds).toFixed(0),
      m.peakRssMb.toFixed(0),
      m.peakLiveHeapMb.toFixed(0),
    ];
    console.log(cells.map((cell, i) => String(cell).padStart([7, 8, 9, 13, 19][i] as number)).join('  '));
  }
  const rss = large.peakRssMb / small.peakRssMb;
  const heap = large.peakLiveHeapMb / small.peakLiveHeapMb;
  const ok = rss <= MAX_GROWTH && heap <= MAX_GROWTH;
  console.log(
    `×${(large.records / small.records).toFixed(1)} records: peak RSS ×${rss.toFixed(2)}, peak live heap ×${heap.toFixed(2)}: ${ok ? 'flat (ok)' : `GROWS (more than ×${MAX_GROWTH})`}`,
  );
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`bench:reindex-memory: ${err.message}`);
    process.exit(1);
  },
);
