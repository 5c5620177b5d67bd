import { aliasName } from '../src/search/indexNames';
import { runLoad } from './load/runLoad';
import type { LoadResult, LoadSpec } from './load/spec';
import type { RssSampler, ServerChild } from './processes';
import type { Row } from './report';
import type { ScenarioPaths } from './scenarios';
import type { BenchWorld } from './world';

export interface MeasureContext {
  world: BenchWorld;
  api: ServerChild;
  baseline: ServerChild;
  /** Samples the API child. */
  apiRss: RssSampler;
  connections: number;
  duration: number;
  warmup: number;
  writeRate: number;
  writeSeconds: number;
  workDir: string;
}

export interface Measurement {
  row: Row;
  api: LoadResult;
  baseline: LoadResult;
  apiPeakRssMb: number;
}

const MB = 2 ** 20;

function problems(result: LoadResult): string {
  const bad = result.non2xx + result.errors;
  return bad > 0 ? `${bad} failed (${JSON.stringify(result.statusCodes)}, ${result.errors} errors)` : '';
}

/** A read scenario at `connections`, the baseline first, then the API (both warmed up). */
export async function measureThroughput(
  ctx: MeasureContext,
  scenario: string,
  paths: ScenarioPaths,
): Promise<Measurement> {
  const spec = (url: string, list: string[]): LoadSpec => ({
    url,
    connections: ctx.connections,
    duration: ctx.duration,
    warmup: ctx.warmup,
    method: 'GET',
    paths: list,
  });
  const baseline = await runLoad(spec(ctx.baseline.url, paths.baseline), ctx.workDir);
  await ctx.apiRss.take();
  const api = await runLoad(spec(ctx.api.url, paths.api), ctx.workDir);
  const apiPeakRssMb = (await ctx.apiRss.take()) / MB;
  const notes = [problems(api) && `API: ${problems(api)}`, problems(baseline) && `baseline: ${problems(baseline)}`]
    .filter(Boolean)
    .join('; ');
  return {
    api,
    baseline,
    apiPeakRssMb,
    row: {
      scenario,
      rps: api.rps,
      p50: api.latency.p50,
      p99: api.latency.p99,
      baselineRps: baseline.rps,
      ratio: api.rps / baseline.rps,
      peakRssMb: apiPeakRssMb,
      notes: notes || `baseline p50/p99 ${baseline.latency.p50}/${baseline.latency.p99} ms`,
    },
  };
}

export interface WriteMeasurement {
  rows: Row[];
  api: LoadResult | null;
  baseline: LoadResult | null;
  apiPeakRssMb: number;
  /** Why the load was not run (the engine takes too long per write at this size). */
  skipped: string | null;
}

/** A write the engine takes longer than this for cannot sustain the fixed rate at all. */
const WRITE_PROBE_LIMIT_MS = 1_000;

/** One event creation through the API, timed (without load). */
async function probeWrite(ctx: MeasureContext, body: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${ctx.api.url}/calendar/events/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.world.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, title: `Bench probe ${Date.now()}` }),
    signal: AbortSignal.timeout(300_000),
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`the probe write answered ${res.status}`);
  return performance.now() - started;
}

/**
 * Scenario 4, after one probe write: when a single write already takes the engine more than a
 * second (jongodb re-checks a whole collection per write: about a minute per event at 10k),
 * a fixed-rate load would only queue hours of work on the shared server, so it is reported as
 * not measurable instead of run.
 */
export async function measureWritesOrSkip(
  ctx: MeasureContext,
  bodies: Record<string, unknown>[],
): Promise<WriteMeasurement> {
  const probeMs = await probeWrite(ctx, bodies[0] ?? {});
  if (probeMs <= WRITE_PROBE_LIMIT_MS) return { ...(await measureWrites(ctx, bodies)), skipped: null };
  const skipped = `not run: one POST /events alone took ${(probeMs / 1000).toFixed(1)} s on this engine at this size`;
  const row = (scenario: string): Row => ({
    scenario,
    rps: null,
    p50: null,
    p99: null,
    baselineRps: null,
    ratio: null,
    peakRssMb: null,
    notes: skipped,
  });
  return {
    rows: [row(`4. POST /events at ${ctx.writeRate}/s`), row('4. sync lag, write to searchable')],
    api: null,
    baseline: null,
    apiPeakRssMb: (await ctx.apiRss.take()) / MB,
    skipped,
  };
}

/**
 * Event creations at a fixed rate: write latency against a bare insert, and the lag from each
 * write's response until a search finds it (no `Prefer: wait-for-index`).
 */
export async function measureWrites(
  ctx: MeasureContext,
  bodies: Record<string, unknown>[],
): Promise<{ rows: Row[]; api: LoadResult; baseline: LoadResult; apiPeakRssMb: number }> {
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
  const baseline = await runLoad(spec(ctx.baseline.url, '/events', {}), ctx.workDir);
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
    ctx.workDir,
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
          problems(api) && `API: ${problems(api)}`,
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
