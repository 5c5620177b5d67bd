import { aliasName } from '../src/search/indexNames';
import { cpuPerRequest } from './cpu';
import { runLoad, type LoadRunner } from './load/runLoad';
import type { LoadResult, LoadSpec } from './load/spec';
import type { RssSampler, ServerChild } from './processes';
import type { Row } from './report';
import type { ScenarioPaths } from './scenarios';
import type { BenchWorld } from './world';

export interface MeasureContext extends LoadRunner {
  world: BenchWorld;
  api: ServerChild;
  baseline: ServerChild;
  /** Samples the API child. */
  apiRss: RssSampler;
  connections: number;
  duration: number;
  warmup: number;
  /**
   * Smoke runs only: each read load sends this many requests instead of lasting `duration`, so
   * every row has answers however slow a busy machine makes them (the run checks the harness).
   */
  requests?: number;
  writeRate: number;
  writeSeconds: number;
}

export interface Measurement {
  row: Row;
  api: LoadResult;
  baseline: LoadResult;
  apiPeakRssMb: number;
  /** CPU per request of each server over a fixed count of requests (`cpuRequests`), in ms; Elasticsearch's meanwhile. */
  cpu: { apiMs: number; baselineMs: number; elasticsearch?: { apiMs: number; baselineMs: number } } | null;
}

const MB = 2 ** 20;

/** Requests of each read load in a smoke run: two per connection at the default 32. */
export const SMOKE_REQUESTS = 64;

/** How long a read load runs: `duration` after `warmup` seconds, or in a smoke run a fixed count. */
export function loadWindow(ctx: Pick<MeasureContext, 'duration' | 'warmup' | 'requests'>) {
  return { duration: ctx.duration, warmup: ctx.warmup, ...(ctx.requests ? { amount: ctx.requests } : {}) };
}

/**
 * What a load got besides the answers it wanted (`ok`: one status, else any 2xx), for a row's
 * notes: `not 304: 503×2, 1 error`, or '' when nothing else. A loaded machine may see a search
 * time out (503); any other status is a finding.
 */
export function otherAnswers(result: LoadResult, ok?: string): string {
  const wanted = (status: string) => (ok ? status === ok : status.startsWith('2'));
  const others = Object.entries(result.statusCodes)
    .filter(([status, count]) => !wanted(status) && count > 0)
    .map(([status, count]) => `${status}×${count}`);
  if (result.errors > 0) others.push(`${result.errors} error${result.errors === 1 ? '' : 's'}`);
  return others.length > 0 ? `not ${ok ?? '2xx'}: ${others.join(', ')}` : '';
}

/** How many times `inTurn` takes each load (a smoke run: once). */
const THROUGHPUT_ROUNDS = 2;

const faster = (a: LoadResult, b: LoadResult | undefined): LoadResult => (b && b.rps > a.rps ? b : a);

/**
 * Two loads that are compared, taken in turn (A, B, A, B), the faster result of each kept: on a
 * machine shared with other work, one load of the same server gave 0.5 to 2 times another minutes
 * apart, and a single pair measured whatever changed between its two loads.
 */
export async function inTurn(
  ctx: Pick<MeasureContext, 'requests'>,
  first: () => Promise<LoadResult>,
  second: () => Promise<LoadResult>,
): Promise<[LoadResult, LoadResult]> {
  let a = await first();
  let b = await second();
  for (let round = 1; round < (ctx.requests ? 1 : THROUGHPUT_ROUNDS); round++) {
    a = faster(await first(), a);
    b = faster(await second(), b);
  }
  return [a, b];
}

/** `otherAnswers` of a load, named for a row's notes (`API not 2xx: 503×1`), or '' when none. */
export function otherAnswersOf(name: string, result: LoadResult, ok?: string): string {
  const others = otherAnswers(result, ok);
  return others && `${name} ${others}`;
}

/**
 * A read scenario at `connections`, the baseline and the API (each warmed up) in turn; with
 * `cpuRequests`, then that many more requests to each, timing the CPU each server process spends,
 * and Elasticsearch's too with `elasticsearchUrl`.
 */
export async function measureThroughput(
  ctx: MeasureContext,
  scenario: string,
  paths: ScenarioPaths,
  cpuRequests = 0,
  elasticsearchUrl?: string,
): Promise<Measurement> {
  const spec = (url: string, list: string[]): LoadSpec => ({
    url,
    connections: ctx.connections,
    ...loadWindow(ctx),
    method: 'GET',
    paths: list,
  });
  await ctx.apiRss.take();
  const [baseline, api] = await inTurn(
    ctx,
    () => runLoad(spec(ctx.baseline.url, paths.baseline), ctx),
    () => runLoad(spec(ctx.api.url, paths.api), ctx),
  );
  const apiPeakRssMb = (await ctx.apiRss.take()) / MB;
  const cpuOf = (server: ServerChild, list: string[]) =>
    cpuPerRequest(server.pid, spec(server.url, list), cpuRequests, ctx, elasticsearchUrl);
  const timed =
    cpuRequests > 0
      ? { baseline: await cpuOf(ctx.baseline, paths.baseline), api: await cpuOf(ctx.api, paths.api) }
      : null;
  const cpu = timed && {
    apiMs: timed.api.cpuMs,
    baselineMs: timed.baseline.cpuMs,
    ...(timed.api.elasticsearchMs !== null && timed.baseline.elasticsearchMs !== null
      ? { elasticsearch: { apiMs: timed.api.elasticsearchMs, baselineMs: timed.baseline.elasticsearchMs } }
      : {}),
  };
  const elasticsearchCpu =
    cpu?.elasticsearch &&
    `Elasticsearch ${cpu.elasticsearch.apiMs.toFixed(2)} ms (baseline ${cpu.elasticsearch.baselineMs.toFixed(2)} ms); ` +
      `both ${((cpu.apiMs + cpu.elasticsearch.apiMs) / (cpu.baselineMs + cpu.elasticsearch.baselineMs)).toFixed(2)}x`;
  const notes = [
    otherAnswersOf('API', api),
    otherAnswersOf('baseline', baseline),
    cpu && `CPU per request ${cpu.apiMs.toFixed(2)} ms (baseline ${cpu.baselineMs.toFixed(2)} ms)`,
    elasticsearchCpu,
  ]
    .filter(Boolean)
    .join('; ');
  return {
    api,
    baseline,
    apiPeakRssMb,
    cpu,
    row: {
      scenario,
      rps: api.rps,
      p50: api.latency.p50,
      p99: api.latency.p99,
      baselineRps: baseline.rps,
      ratio: api.rps / baseline.rps,
      peakRssMb: apiPeakRssMb,
      notes: `baseline p50/p99 ${baseline.latency.p50}/${baseline.latency.p99} ms${notes ? `; ${notes}` : ''}`,
    },
  };
}

export interface WriteMeasurement {
  rows: Row[];
  api: LoadResult;
  baseline: LoadResult;
  apiPeakRssMb: number;
}

/**
 * Event creations at a fixed rate: write latency against a bare insert, and the lag from each
 * write's response until a search finds it (no `Prefer: wait-for-index`).
 */
export async function measureWrites(ctx: MeasureContext, bodies: Record<string, unknown>[]): Promise<WriteMeasurement> {
  const spec = (url: string, path: string, headers: Record<string, string>): LoadSpec => ({
    url,
    connections: 8,
    duration: ctx.writeSeconds,
    warmup: Math.min(ctx.warmup, 2),
    overallRate: ctx.writeRate,
    method: 'POST',
    paths: [path],
    headers,
    bodies,
  });
  const baseline = await runLoad(spec(ctx.baseline.url, '/events', {}), ctx);
  await ctx.world.services.stores.events.docs.deleteMany({ lang: 'bench' } as never);
  await ctx.apiRss.take();
  const api = await runLoad(
    {
      ...spec(ctx.api.url, '/calendar/events/v1/events', { authorization: `Bearer ${ctx.world.adminKey}` }),
      lag: {
        elasticsearchUrl: ctx.world.config.elasticsearch.url as string,
        index: aliasName(ctx.world.config, 'event', 'en'),
        pollMs: 20,
        giveUpMs: 15_000,
      },
    },
    ctx,
  );
  const apiPeakRssMb = (await ctx.apiRss.take()) / MB;
  const lag = api.lag;
  return {
    api,
    baseline,
    apiPeakRssMb,
    rows: [
      {
        scenario: `4. POST /events at ${ctx.writeRate}/s`,
        rps: api.rps,
        p50: api.latency.p50,
        p99: api.latency.p99,
        baselineRps: baseline.rps,
        ratio: null,
        peakRssMb: apiPeakRssMb,
        notes: [
          otherAnswersOf('API', api),
          `baseline insert p50/p99 ${baseline.latency.p50}/${baseline.latency.p99} ms`,
        ]
          .filter(Boolean)
          .join('; '),
      },
      {
        scenario: '4. sync lag, write to searchable',
        rps: null,
        p50: lag ? Math.round(lag.p50) : null,
        p99: lag ? Math.round(lag.p99) : null,
        baselineRps: null,
        ratio: null,
        peakRssMb: null,
        notes: lag
          ? `p95 ${Math.round(lag.p95 ?? 0)} ms, max ${Math.round(lag.max)} ms, ${lag.samples} writes${lag.unseen ? `, ${lag.unseen} NEVER SEEN` : ''}`
          : 'not measured',
      },
    ],
  };
}
