import http from 'node:http';
import { cpuSecondsOf } from './cpu';
import { runLoad } from './load/runLoad';
import type { LoadResult, LoadSpec } from './load/spec';
import { loadWindow, otherAnswers, type MeasureContext } from './measure';
import { rssOf } from './processes';
import type { Row } from './report';

const ROOT = '/calendar/events/v1';
const MB = 2 ** 20;
/** As a browser or CDN asks: the full answers are compressed, as they would be. */
const ENCODING = { 'accept-encoding': 'br, gzip' };

/** The figures the caching targets are checked against (bench/targets.ts). */
export interface CachingMeasured {
  revalidations: { scenario: string; rpsRatio: number; cpuRatio: number }[];
  /** Compressed (br) bytes over raw bytes of a 50-event list page. */
  compressedRatio: number;
  feedP50Ms: number;
  feedEntries: number;
  /** Peak RSS under the feed load above the API's RSS before it (MB). */
  feedRssGrowthMb: number;
}

/** The raw answer to GET `path` (not decoded): status, headers and bytes. */
function getRaw(base: string, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number }>((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
      })
      .on('error', reject);
  });
}

const answered = (result: LoadResult, status: string) => result.statusCodes[status] ?? 0;
/** A note added to a row's notes, when there is one. */
const also = (note: string) => (note ? `; ${note}` : '');

/** A load on the API alone, with the CPU it used per answer of `status`. */
async function loadWithCpu(ctx: MeasureContext, spec: LoadSpec, status: string) {
  const before = await cpuSecondsOf(ctx.api.pid);
  const result = await runLoad(spec, ctx);
  const cpu = (await cpuSecondsOf(ctx.api.pid)) - before;
  // Warm-up requests used CPU too: per request of the whole run, warm-up included.
  const requests = Math.max(1, answered(result, status) * ((result.seconds + spec.warmup) / result.seconds));
  return { result, cpuMsPerRequest: (cpu * 1000) / requests };
}

/**
 * The full 200 and the 304 revalidation of the same paths, one after the other: throughput and
 * the API's CPU per answer of each (`If-None-Match` with the tag each path answered before).
 */
async function revalidation(ctx: MeasureContext, scenario: string, paths: string[]) {
  const tags = await Promise.all(
    paths.map(async (path) => (await getRaw(ctx.api.url, path, ENCODING)).headers.etag as string | undefined),
  );
  const tagged = paths.filter((_, i) => tags[i]);
  const spec = (pathHeaders?: Record<string, string>[]): LoadSpec => ({
    url: ctx.api.url,
    connections: ctx.connections,
    ...loadWindow(ctx),
    method: 'GET',
    paths: tagged,
    headers: ENCODING,
    ...(pathHeaders ? { pathHeaders } : {}),
  });
  const full = await loadWithCpu(ctx, spec(), '200');
  const revalidated = await loadWithCpu(
    ctx,
    spec(tags.filter(Boolean).map((etag) => ({ ...ENCODING, 'if-none-match': etag as string }))),
    '304',
  );
  const rpsRatio = revalidated.result.rps / full.result.rps;
  const cpuRatio = revalidated.cpuMsPerRequest / full.cpuMsPerRequest;
  const rows: Row[] = [
    {
      scenario: `${scenario} 200`,
      rps: full.result.rps,
      p50: full.result.latency.p50,
      p99: full.result.latency.p99,
      baselineRps: null,
      ratio: null,
      peakRssMb: null,
      notes: `API CPU ${full.cpuMsPerRequest.toFixed(2)} ms/answer${also(otherAnswers(full.result, '200'))}`,
    },
    {
      scenario: `${scenario} 304`,
      rps: revalidated.result.rps,
      p50: revalidated.result.latency.p50,
      p99: revalidated.result.latency.p99,
      baselineRps: full.result.rps,
      ratio: rpsRatio,
      peakRssMb: null,
      notes: `ratio: 304 req/s over 200's; API CPU ${revalidated.cpuMsPerRequest.toFixed(2)} ms/answer (${cpuRatio.toFixed(2)} of the 200's)${also(otherAnswers(revalidated.result, '304'))}`,
    },
  ];
  return { rows, measured: { scenario, rpsRatio, cpuRatio }, details: { full, revalidated } };
}

/**
 * 6. HTTP caching: 304 revalidations of single reads and list pages beside their full 200s;
 * 7. the compressed size of a 50-event list page; 8. the feed of every event (up to 1,000).
 */
export async function measureCaching(
  ctx: MeasureContext,
  eventIds: number[],
): Promise<{ rows: Row[]; measured: CachingMeasured; details: Record<string, unknown> }> {
  const reads = await revalidation(
    ctx,
    '8. GET /events/{id}',
    eventIds.slice(0, 200).map((id) => `${ROOT}/events/${id}`),
  );
  const pages = Math.max(1, Math.min(20, Math.floor(eventIds.length / 50)));
  const listPaths = Array.from({ length: pages }, (_, i) => `${ROOT}/events?per_page=50&page=${i + 1}`);
  const lists = await revalidation(ctx, '8. GET /events?per_page=50', listPaths);

  const page = `${ROOT}/events?per_page=50`;
  const [raw, br, gzip] = await Promise.all([
    getRaw(ctx.api.url, page, { 'accept-encoding': 'identity' }),
    getRaw(ctx.api.url, page, { 'accept-encoding': 'br' }),
    getRaw(ctx.api.url, page, { 'accept-encoding': 'gzip' }),
  ]);
  const compressedRatio = br.bytes / raw.bytes;
  const compressed: Row = {
    scenario: '9. list page of 50, br',
    rps: null,
    p50: null,
    p99: null,
    baselineRps: null,
    ratio: compressedRatio,
    peakRssMb: null,
    notes: `ratio: br bytes over raw; raw ${raw.bytes} B, br ${br.bytes} B (${br.headers['content-encoding']}), gzip ${gzip.bytes} B (${(gzip.bytes / raw.bytes).toFixed(3)})`,
  };

  const feedPath = `${ROOT}/events.ics`;
  const feedBody = await fetch(`${ctx.api.url}${feedPath}`).then((res) => res.text());
  const feedEntries = feedBody.split('BEGIN:VEVENT').length - 1;
  const rssBefore = (await rssOf(ctx.api.pid)) ?? 0;
  await ctx.apiRss.take();
  const feed = await runLoad(
    {
      url: ctx.api.url,
      connections: 4,
      ...loadWindow(ctx),
      method: 'GET',
      paths: [feedPath],
      headers: ENCODING,
    },
    ctx,
  );
  const feedPeak = await ctx.apiRss.take();
  const feedRow: Row = {
    scenario: `10. GET /events.ics (${feedEntries} events)`,
    rps: feed.rps,
    p50: feed.latency.p50,
    p99: feed.latency.p99,
    baselineRps: null,
    ratio: null,
    peakRssMb: feedPeak / MB,
    notes: `4 connections; API RSS ${Math.round(rssBefore / MB)} MB before${also(otherAnswers(feed, '200'))}`,
  };
  return {
    rows: [...reads.rows, ...lists.rows, compressed, feedRow],
    measured: {
      revalidations: [reads.measured, lists.measured],
      compressedRatio,
      feedP50Ms: feed.latency.p50,
      feedEntries,
      feedRssGrowthMb: Math.max(0, feedPeak - rssBefore) / MB,
    },
    details: {
      reads: reads.details,
      lists: lists.details,
      sizes: { raw: raw.bytes, br: br.bytes, gzip: gzip.bytes },
      feed,
    },
  };
}
