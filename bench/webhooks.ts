/**
 * `npm run bench:webhooks -- [--events N] [--subscriptions N] [--writes N] [--rate W] [--unique] [--check]`:
 * the list latency of the API while a burst of writes is processed, without subscriptions and
 * then with them (a receiver on 127.0.0.1 taking every message), and how fast the messages are
 * delivered. The writes come at a fixed rate, so that both bursts are the same load; lists are
 * timed from the burst's start until it is processed (indexed; with subscriptions, every message
 * delivered). The API, its in-process sync worker and the receiver share this process, as
 * `npm start` runs. With --check, exit 1 unless every message was delivered and the lists' p50 and
 * p95 with subscriptions are within MAX_LIST_SLOWDOWN of those without (issue 31), both over the
 * whole burst and over its writes alone (with subscriptions, most of the whole is delivery after
 * the last write).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { startServer } from '../src/app/server';
import { startSyncWorker } from '../src/indexer/syncWorker';
import { createLogger } from '../src/lib/log';
import { openServices } from '../src/services/container';
import { waitForSearchIndexes } from '../src/search/ensureIndexes';
import { emptyDatabase } from '../src/tools/emptyDatabase';

const ROOT = '/calendar/events/v1';
const WORDS = ['jazz', 'rock', 'opera', 'folk', 'choir', 'piano', 'tango', 'salsa', 'blues', 'organ'];
/** Issue 31: list latency with subscriptions at most this many times that without. */
const MAX_LIST_SLOWDOWN = 1.5;
const LIST_CLIENTS = 4;
/** Longest wait for a burst to be processed before the run fails. */
const SETTLE_TIMEOUT_MS = 15 * 60_000;

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '300' },
    subscriptions: { type: 'string', default: '200' },
    writes: { type: 'string', default: '500' },
    rate: { type: 'string', default: '50' },
    unique: { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
  },
});
const positive = (name: keyof typeof args) => {
  const value = Number(args[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Latencies {
  lists: number;
  p50: number;
  p95: number;
  p99: number;
  /** From the burst's first write until it was processed. */
  seconds: number;
}

function latenciesOf(latencies: number[], seconds: number): Latencies {
  return {
    lists: latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    seconds,
  };
}

/** The event loop's delays over a burst (the API, its worker and the receiver share it), in ms. */
interface LoopDelay {
  p99: number;
  max: number;
}

/**
 * Subscription `n`'s filters: a title word, half of them with a start date too. Without
 * `unique`, many subscriptions share each search (20 distinct ones); with it, each has its own
 * (the start date differs by a second), so that sharing searches cannot help.
 */
function filtersOf(n: number, unique: boolean): Record<string, unknown> {
  const search = WORDS[n % WORDS.length]!;
  if (unique) return { search, start_date: new Date(Date.UTC(2029, 0, 1) + n * 1000).toISOString().slice(0, 19) };
  return n % 2 ? { search } : { search, start_date: '2030-01-01' };
}

async function main(): Promise<void> {
  const events = positive('events');
  const subscriptionCount = positive('subscriptions');
  const writes = positive('writes');
  const rate = positive('rate');
  const runId = `w${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    MONGO_DATABASE: `calendar_${runId}`,
    INDEX_PREFIX: `bench-${runId}`,
    PUBLIC_API_URL: 'http://127.0.0.1:1',
    RATE_LIMIT: 'false',
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  const services = await openServices(config, createLogger(config.logLevel));
  await waitForSearchIndexes(services);
  const worker = startSyncWorker(services);
  const server = await startServer(services, '127.0.0.1', 0);
  const { key } = await services.apiKeys.create('bench administrator', 'administrator');
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => receiver.once('listening', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${ROOT}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : undefined;
  };
  const eventBody = (n: number) => ({
    title: `${WORDS[n % WORDS.length]} night ${n}`,
    status: 'publish',
    start_date: `2030-0${1 + (n % 9)}-1${n % 10} 20:00:00`,
    end_date: `2030-0${1 + (n % 9)}-1${n % 10} 22:00:00`,
  });
  const indexed = async () => (await services.sync.backlog()).pending === 0;
  const delivered = async () => (await services.webhooks.deliveries.depth()).pending === 0;

  /** `writes` events written at `rate` a second; lists timed (LIST_CLIENTS at once) until `processed()`. */
  /** Lists timed from the burst's first write until it is processed, and those of them made until its last write. */
  async function burst(
    offset: number,
    processed: () => Promise<boolean>,
  ): Promise<{ whole: Latencies; writing: Latencies; loop: LoopDelay }> {
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const latencies: number[] = [];
    const startedAt: number[] = [];
    let busy = true;
    const started = performance.now();
    const listers = Array.from({ length: LIST_CLIENTS }, async (_, client) => {
      for (let n = 0; busy; n++) {
        const at = performance.now();
        await send('GET', `/events?search=${WORDS[(n + client) % WORDS.length]}&per_page=10`);
        latencies.push(performance.now() - at);
        startedAt.push(at);
      }
    });
    const written = Array.from({ length: writes }, async (_, n) => {
      await sleep((n * 1000) / rate);
      await send('POST', '/events', eventBody(offset + n));
    });
    await Promise.all(written);
    const writtenAt = performance.now();
    while (!(await processed())) {
      if (performance.now() - started > SETTLE_TIMEOUT_MS) throw new Error('the burst was not processed in time');
      await sleep(100);
    }
    busy = false;
    await Promise.all(listers);
    loop.disable();
    return {
      loop: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
      whole: latenciesOf(latencies, (performance.now() - started) / 1000),
      writing: latenciesOf(
        latencies.filter((_, i) => startedAt[i]! < writtenAt),
        (writtenAt - started) / 1000,
      ),
    };
  }

  let failures: string[];
  try {
    console.log(`seeding ${events} events…`);
    for (let n = 0; n < events; n += 10)
      await Promise.all(Array.from({ length: 10 }, (_, i) => send('POST', '/events', eventBody(n + i))));
    while (!(await indexed())) await sleep(100);
    const without = await burst(events, indexed);
    const filters = Array.from({ length: subscriptionCount }, (_, n) => filtersOf(n, args.unique!));
    for (const f of filters) await send('POST', '/subscriptions', { url: receiverUrl, filters: f });
    // Made in one key order: the same text is the same search.
    const searches = new Set(filters.map((f) => JSON.stringify(f))).size;
    const receivedBefore = received;
    const withSubscriptions = await burst(events + writes, async () => (await indexed()) && (await delivered()));
    const { deliveries } = services.webhooks;
    // Finished messages are in the log; any left in the queue was not delivered.
    const [logged, queued, notDelivered, first, last] = await Promise.all([
      deliveries.finished.countDocuments({}),
      deliveries.docs.countDocuments({}),
      deliveries.finished.countDocuments({ status: { $ne: 'delivered' } }),
      deliveries.finished.findOne({}, { sort: { occurredAt: 1 }, projection: { occurredAt: 1 } }),
      deliveries.finished.findOne({}, { sort: { lastAttemptAt: -1 }, projection: { lastAttemptAt: 1 } }),
    ]);
    const messages = logged + queued;
    const deliverySeconds = ((last?.lastAttemptAt?.getTime() ?? 0) - (first?.occurredAt.getTime() ?? 0)) / 1000;

    const row = (name: string, r: Latencies) =>
      `| ${name} | ${r.seconds.toFixed(1)} | ${r.lists} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} |`;
    console.log(
      `\n${writes} writes at ${rate}/s over ${events} events; ${subscriptionCount} subscriptions, ${searches} distinct searches\n`,
    );
    console.log('| Lists | Seconds | Lists | p50 ms | p95 ms | p99 ms |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    console.log(row('until processed, without subscriptions', without.whole));
    console.log(row('until processed, with subscriptions', withSubscriptions.whole));
    console.log(row('during the writes, without subscriptions', without.writing));
    console.log(row('during the writes, with subscriptions', withSubscriptions.writing));
    const windows = { 'until processed': 'whole', 'during the writes': 'writing' } as const;
    const ratio = (window: 'whole' | 'writing', p: 'p50' | 'p95' | 'p99') =>
      withSubscriptions[window][p] / without[window][p];
    const delays = (r: { loop: LoopDelay }) => `p99 ${r.loop.p99.toFixed(0)} ms, max ${r.loop.max.toFixed(0)} ms`;
    console.log(`\nevent loop delay without: ${delays(without)}; with: ${delays(withSubscriptions)}`);
    for (const [name, window] of Object.entries(windows))
      console.log(
        `with/without ${name}: p50 ${ratio(window, 'p50').toFixed(2)}, p95 ${ratio(window, 'p95').toFixed(2)}, p99 ${ratio(window, 'p99').toFixed(2)}`,
      );
    console.log(
      `${messages} messages, ${received - receivedBefore} POSTs received, ${notDelivered + queued} not delivered; ` +
        `${(messages / Math.max(deliverySeconds, 0.001)).toFixed(1)} messages/s from the first queued to the last delivered (${deliverySeconds.toFixed(1)} s)`,
    );
    failures = [
      ...(notDelivered + queued > 0 || received - receivedBefore < messages
        ? [`${notDelivered + queued} messages not delivered`]
        : []),
      ...Object.entries(windows).flatMap(([name, window]) =>
        (['p50', 'p95'] as const)
          .filter((p) => ratio(window, p) > MAX_LIST_SLOWDOWN)
          .map(
            (p) =>
              `list ${p} ${name} with subscriptions ${ratio(window, p).toFixed(2)}x that without (at most ${MAX_LIST_SLOWDOWN}x)`,
          ),
      ),
    ];
  } finally {
    await server.close();
    await worker.close();
    receiver.close();
    await emptyDatabase(services);
    await services.search.indices.delete({ index: `${config.elasticsearch.indexPrefix}-*`, ignore_unavailable: true });
    await services.close();
  }
  if (args.check) {
    for (const failure of failures) console.log(`MISSED: ${failure}`);
    if (failures.length) process.exit(1);
    console.log('targets met');
  }
}

main().catch((err: Error) => {
  console.error(`bench:webhooks: ${err.message}`);
  process.exit(1);
});
