import { parseArgs } from 'node:util';
import { isError, mib, metricValue, ms, summarise, windowLine, type Outcome } from './soak/stats';
import { cleanUp, operations, scheduler, seed, type Answer } from './soak/workload';

const USAGE = `npm run soak -- [--url http://127.0.0.1:8080] [--duration 120] [--rate 20] [--key KEY] [--window 10]

A bounded soak of a running API on this machine: a fixed request rate (open loop) of reads by ID
and slug, lists with filters and search and, with an API key (--key or CALENDAR_API_KEY), writes
(updates, creates and deletes that keep the database's size). Stops by itself after --duration
seconds and prints errors, latency percentiles per window and the API's memory (RSS, from its
GET /metrics). Exit code 1 when any request failed. Loopback URLs only.`;

const ROOT = '/calendar/events/v1';
/** Requests waiting for an answer at most; beyond it the client, not the API, is saturated. */
const MAX_IN_FLIGHT = 256;

function options() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:8080' },
      duration: { type: 'string', default: '120' },
      rate: { type: 'string', default: '20' },
      key: { type: 'string', default: process.env.CALENDAR_API_KEY },
      window: { type: 'string', default: '10' },
      'keep-data': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const url = new URL(values.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!(host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host))) {
    console.error(`soak: refusing ${values.url}: only loopback addresses (127.0.0.0/8, ::1, localhost) may be soaked`);
    process.exit(2);
  }
  const numbers = { duration: Number(values.duration), rate: Number(values.rate), window: Number(values.window) };
  for (const [name, value] of Object.entries(numbers)) {
    if (!Number.isFinite(value) || value <= 0 || value > 3_600) {
      console.error(`soak: --${name} must be a number of seconds (or requests per second) between 0 and 3600`);
      process.exit(2);
    }
  }
  return { base: url.origin, key: values.key, keepData: values['keep-data'], ...numbers };
}

async function main(): Promise<void> {
  const opts = options();
  const send = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const started = performance.now();
    try {
      const res = await fetch(`${opts.base}${ROOT}${path}`, {
        method,
        headers: {
          ...(opts.key && method !== 'GET' ? { Authorization: `Bearer ${opts.key}` } : {}),
          ...(body ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      return {
        status: res.status,
        body: text ? (JSON.parse(text) as Record<string, any>) : {},
        ms: performance.now() - started,
      };
    } catch {
      return { status: 0, body: {}, ms: performance.now() - started };
    }
  };
  const scrape = async () => {
    try {
      const text = await (await fetch(`${opts.base}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
      return {
        rss: metricValue(text, 'process_resident_memory_bytes'),
        heap: metricValue(text, 'nodejs_heap_size_used_bytes'),
        backlog: metricValue(text, 'calendar_sync_backlog_entries'),
      };
    } catch {
      return {};
    }
  };

  const canWrite = Boolean(opts.key);
  const marker = Date.now().toString(36);
  console.log(
    `soak: ${opts.base}, ${opts.rate} req/s for ${opts.duration} s, ${canWrite ? 'reads, lists and writes' : 'reads and lists only (no key)'}`,
  );
  const known = await seed(send, canWrite, marker);
  const next = scheduler(operations(send, known, canWrite));

  const all: Outcome[] = [];
  let window: Outcome[] = [];
  const windows: { label: string; p99: number; rss?: number; heap?: number }[] = [];
  let inFlight = 0;
  let dropped = 0;
  const started = performance.now();
  const total = Math.round(opts.duration * opts.rate);
  const pending = new Set<Promise<void>>();
  const reportWindow = async (label: string) => {
    const figures = summarise(window);
    const server = await scrape();
    windows.push({ label, p99: figures.p99, rss: server.rss, heap: server.heap });
    console.log(windowLine(label, figures, server));
    window = [];
  };
  console.log(
    `${'window'.padEnd(9)} (requests answered in the window, their errors and latency; the API's RSS, heap and sync backlog at its end)`,
  );
  let nextWindowAt = opts.window * 1000;
  for (let n = 0; n < total; n++) {
    const due = (n / opts.rate) * 1000;
    const wait = due - (performance.now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (performance.now() - started >= nextWindowAt) {
      await reportWindow(`${Math.round(nextWindowAt / 1000)} s`);
      nextWindowAt += opts.window * 1000;
    }
    if (inFlight >= MAX_IN_FLIGHT) {
      dropped++;
      continue;
    }
    const op = next(n);
    inFlight++;
    const request = op.run(n).then((answer) => {
      const outcome = { op: op.name, status: answer.status, ms: answer.ms };
      all.push(outcome);
      window.push(outcome);
      inFlight--;
      pending.delete(request);
    });
    pending.add(request);
  }
  await Promise.all(pending);
  await reportWindow('end');

  const overall = summarise(all);
  console.log(
    `\ntotal: ${overall.requests} requests in ${((performance.now() - started) / 1000).toFixed(1)} s, ${overall.errors} errors, ${dropped} not sent (client saturated)`,
  );
  console.log(`statuses: ${JSON.stringify(overall.statuses)}`);
  console.log(
    `latency: p50 ${ms(overall.p50)}, p95 ${ms(overall.p95)}, p99 ${ms(overall.p99)}, max ${ms(overall.max)}`,
  );
  for (const name of [...new Set(all.map((o) => o.op))]) {
    const s = summarise(all.filter((o) => o.op === name));
    console.log(
      `  ${name.padEnd(20)} ${String(s.requests).padStart(6)} req ${String(s.errors).padStart(4)} err  p50 ${ms(s.p50)}  p99 ${ms(s.p99)}  max ${ms(s.max)}`,
    );
  }
  for (const key of ['rss', 'heap'] as const) {
    const values = windows.map((w) => w[key]).filter((v): v is number => v !== undefined);
    if (values.length < 2) continue;
    const settled = values[1]!;
    const last = values[values.length - 1]!;
    console.log(
      `memory (${key === 'rss' ? 'resident' : 'JS heap used'}): first ${mib(values[0]!)}, after warm-up ${mib(settled)}, last ${mib(last)}, max ${mib(Math.max(...values))} (${(((last - settled) / settled) * 100).toFixed(1)}% since warm-up)`,
    );
  }
  const p99s = windows.slice(1, -1).map((w) => w.p99);
  if (p99s.length > 1)
    console.log(
      `latency stability: p99 per window from ${ms(Math.min(...p99s))} to ${ms(Math.max(...p99s))} (first ${ms(p99s[0]!)}, last ${ms(p99s[p99s.length - 1]!)})`,
    );
  const failures = all.filter((o) => isError(o.status));
  if (failures.length)
    console.log(
      `errors by operation: ${JSON.stringify(Object.fromEntries([...new Set(failures.map((f) => f.op))].map((op) => [op, failures.filter((f) => f.op === op).length])))}`,
    );
  if (canWrite && !opts.keepData) await cleanUp(send, known);
  process.exit(failures.length > 0 || dropped > 0 ? 1 : 0);
}

main().catch((err: Error) => {
  console.error(`soak: ${err.message}`);
  process.exit(1);
});
