import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import PipelinedRequestsQueue from 'autocannon/lib/pipelinedRequestsQueue';
import { LagWatcher } from './lag';
import type { LoadResult, LoadSpec } from './spec';

/**
 * One load run in its own process (so the load generator never shares an event loop with what
 * it measures), compiled with the API (bench/build.ts) or run through tsx: `tsx
 * bench/load/child.ts spec.json` prints a LoadResult as JSON on stdout.
 */
type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string };

/**
 * How often autocannon looks whether a run is over: a run ends at the first look after its time
 * is up or its last answer came. At its default of a second, a smoke load of 64 requests lasted a
 * second however fast they were answered, and its rate was counted over that second.
 */
const SAMPLE_MS = 100;

function run(spec: LoadSpec, seconds: number, lag: LagWatcher | null, amount?: number): Promise<autocannon.Result> {
  let next = Math.floor(Math.random() * spec.paths.length);
  let written = 0;
  const unique = `${process.pid.toString(36)}${Date.now().toString(36)}`;
  const setupRequest = (req: Request): Request => {
    const at = next++ % spec.paths.length;
    const path = spec.paths[at] as string;
    const own = spec.pathHeaders?.[at];
    if (own) return { ...req, path, headers: { ...spec.headers, ...req.headers, ...own } };
    if (!spec.bodies) return { ...req, path };
    const body = spec.bodies[written % spec.bodies.length] as Record<string, unknown>;
    written++;
    return { ...req, path, body: JSON.stringify({ ...body, title: `${String(body.title)} ${unique}-${written}` }) };
  };
  const onResponse = lag
    ? (status: number, body: string) => {
        if (status === 201) lag.written(String((JSON.parse(body) as { id: unknown }).id));
      }
    : undefined;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        sampleInt: SAMPLE_MS,
        ...(amount ? { amount } : { duration: seconds }),
        ...(spec.overallRate ? { overallRate: spec.overallRate } : {}),
        headers: { ...(spec.bodies ? { 'content-type': 'application/json' } : {}), ...spec.headers },
        requests: [
          { method: spec.method, setupRequest, ...(onResponse ? { onResponse } : {}) },
        ] as autocannon.Request[],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

function summarise(result: autocannon.Result): LoadResult {
  const codes = result.statusCodeStats as unknown as Record<string, { count: number }> | undefined;
  const requests = result.requests.total;
  return {
    requests,
    seconds: result.duration,
    rps: requests / result.duration,
    latency: {
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(codes ?? {}).map(([code, stat]) => [code, Number(stat.count)])),
  };
}

/**
 * autocannon 9 appends every chunk of every answer to a string, decoding it as UTF-8, whether or
 * not anything reads it. On the 2 cores the load generator shares with what it measures, that
 * decoding weighs by the byte: reading a 4.6 MB page of accented JSON took it longer than the
 * API took to send it. Only writes (`onResponse`) read answers, so loads of reads keep none.
 */
function keepNoBodies(): void {
  const queue = PipelinedRequestsQueue.prototype as { addBody?: unknown };
  if (typeof queue.addBody !== 'function') throw new Error('autocannon changed: no PipelinedRequestsQueue.addBody');
  queue.addBody = () => undefined;
}

async function main(): Promise<void> {
  const spec = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as LoadSpec;
  if (!spec.lag) keepNoBodies();
  if (spec.warmup > 0) await run(spec, spec.warmup, null);
  const lag = spec.lag ? new LagWatcher(spec.lag.elasticsearchUrl, spec.lag.index, spec.lag.pollMs) : null;
  lag?.start();
  const result = summarise(await run(spec, spec.duration, lag, spec.amount));
  if (lag && spec.lag) result.lag = await lag.finish(spec.lag.giveUpMs);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((err: Error) => {
  console.error(`bench load: ${err.stack ?? err.message}`);
  process.exit(1);
});
