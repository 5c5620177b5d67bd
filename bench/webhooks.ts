/**
 * `npm run bench:webhooks -- [--events N] [--subscriptions N] [--writes N]`: the list latency
 * of the API while a burst of writes is indexed, without subscriptions and then with them (and a
 * receiver on 127.0.0.1 taking every message), and how long the messages take to be delivered.
 * The API, its in-process sync worker and the receiver share this process, as `npm start` runs.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../config';
import { startServer } from '../src/app/server';
import { startSyncWorker } from '../src/indexer/syncWorker';
import { createLogger } from '../src/lib/log';
import { openServices } from '../src/services/container';
import { waitForSearchIndexes } from '../src/search/ensureIndexes';
import { emptyDatabase } from '../src/tools/emptyDatabase';

const ROOT = '/calendar/events/v1';
const WORDS = ['jazz', 'rock', 'opera', 'folk', 'choir', 'piano', 'tango', 'salsa', 'blues', 'organ'];

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
};

async function main(): Promise<void> {
  const events = option('events', 300);
  const subscriptionCount = option('subscriptions', 200);
  const writes = option('writes', 500);
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
  const drained = async () => {
    while ((await services.sync.backlog()).pending > 0) await new Promise((r) => setTimeout(r, 100));
  };

  /** List latencies (4 clients) while `writes` events are written (8 at once). */
  async function burst(offset: number): Promise<{ p50: number; p95: number; p99: number; lists: number }> {
    const latencies: number[] = [];
    let writing = true;
    const listers = Array.from({ length: 4 }, async (_, client) => {
      for (let n = 0; writing; n++) {
        const started = performance.now();
        await send('GET', `/events?search=${WORDS[(n + client) % WORDS.length]}&per_page=10`);
        latencies.push(performance.now() - started);
      }
    });
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < writes) await send('POST', '/events', eventBody(offset + next++));
      }),
    );
    await drained();
    writing = false;
    await Promise.all(listers);
    return {
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      lists: latencies.length,
    };
  }

  try {
    console.log(`seeding ${events} events…`);
    for (let n = 0; n < events; n += 10)
      await Promise.all(Array.from({ length: 10 }, (_, i) => send('POST', '/events', eventBody(n + i))));
    await drained();
    const without = await burst(events);
    for (let n = 0; n < subscriptionCount; n++) {
      const filters =
        n % 2 ? { search: WORDS[n % WORDS.length] } : { search: WORDS[n % WORDS.length], start_date: '2030-01-01' };
      await send('POST', '/subscriptions', { url: receiverUrl, filters });
    }
    const deliveredBefore = received;
    const started = Date.now();
    const withSubscriptions = await burst(events + writes);
    while ((await services.webhooks.deliveries.depth()).pending > 0) await new Promise((r) => setTimeout(r, 200));
    const deliveryMs = Date.now() - started;
    const row = (name: string, r: typeof without) =>
      `| ${name} | ${r.lists} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} |`;
    console.log(`\n${writes} writes over ${events} events, ${subscriptionCount} subscriptions\n`);
    console.log('| Lists during the burst | Lists | p50 ms | p95 ms | p99 ms |\n| --- | --- | --- | --- | --- |');
    console.log(row('without subscriptions', without));
    console.log(row('with subscriptions', withSubscriptions));
    console.log(
      `\np99 ratio ${(withSubscriptions.p99 / without.p99).toFixed(2)}; ${received - deliveredBefore} messages delivered, the last ${deliveryMs} ms after the burst began`,
    );
  } finally {
    await server.close();
    await worker.close();
    receiver.close();
    await emptyDatabase(services);
    await services.search.indices.delete({ index: `${config.elasticsearch.indexPrefix}-*`, ignore_unavailable: true });
    await services.close();
  }
}

main().catch((err: Error) => {
  console.error(`bench:webhooks: ${err.message}`);
  process.exit(1);
});
