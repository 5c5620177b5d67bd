import { LANGUAGES } from '../config';
import { aliasName } from '../src/search/indexNames';
import { hostileRows, timeHostileRules, type HostileTiming } from './hostileRules';
import { measureDepth } from './integrationScenarios';
import { runLoad } from './load/runLoad';
import type { LoadResult } from './load/spec';
import { loadWindow, otherAnswers, type MeasureContext } from './measure';
import type { Row } from './report';
import { drawSamples, seededRandom, type Samples } from './scenarios';
import { seedAndIndex } from './seed';
import { startServers, type ServerSettings } from './servers';
import { drained, localText, merged, postEvent, weeklyIndexTimes } from './seriesIndexing';
import { openWorld, type BenchWorld } from './world';

/**
 * Issue 27's scenario, on a world of its own: the same event lists at the usual size and again
 * beside daily series (about 73,000 occurrence documents per language for 100 of them), the
 * worker's time to index a two-year weekly series, and the time to refuse hostile rules.
 *
 * The usual events: RECURRING_SEEDED_EVENTS demo events in the database, their index documents
 * copied in bulk (new IDs) until the index holds `--events` documents per language. The list
 * reads Elasticsearch only; seeding 10,000 events on jongodb takes minutes, and each series
 * written through the API beside them seconds (its insert cost grows with the collection).
 */
const ROOT = '/calendar/events/v1';
const RECURRING_SEEDED_EVENTS = 300;
/** Daily series per usual event: the issue's 100 beside 10,000. */
const SERIES_PER_EVENT = 1 / 100;
/** Far above the seeded events' IDs. */
const COPY_ID_BASE = 10_000_000;
/** Latency, not capacity: few clients, each request's own cost. */
const LIST_CONNECTIONS = 4;
const DAY_MS = 86_400_000;

export interface RecurringMeasured {
  baseDocs: number;
  largeDocs: number;
  p50Ratio: number;
  p99Ratio: number;
  /** Worker's claim-to-indexed time of a two-year weekly series (ms). */
  weeklyIndexMs: { p50: number; max: number } | null;
  /** Scenarios 11 and 13 beside the series: a cursor page at depth, an export to its end (issue 30). */
  depth: { cursorRatio: number; exportPeakRssMb: number };
  hostile: HostileTiming[];
}

export interface RecurringSettings extends ServerSettings {
  seed: number;
  events: number;
  smoke: boolean;
  duration: number;
  warmup: number;
  /** A smoke run's fixed count of requests per load (MeasureContext.requests). */
  requests?: number;
}

/** Copies the seeded events' index documents under new IDs until each language holds `target`. */
async function fillIndexTo(world: BenchWorld, target: number): Promise<void> {
  const { search } = world.services;
  for (const lang of LANGUAGES) {
    const index = aliasName(world.config, 'event', lang);
    const found = await search.search<Record<string, any>>({ index, size: 10_000, query: { match_all: {} } });
    const docs = found.hits.hits.map((hit) => hit._source as Record<string, any>);
    const operations: unknown[] = [];
    for (let n = docs.length; n < target; n++) {
      const doc = docs[n % docs.length] as Record<string, any>;
      const id = COPY_ID_BASE + n;
      operations.push({ index: { _index: index, _id: String(id) } });
      operations.push({ ...doc, id, series_id: id, record: { ...doc.record, id } });
    }
    for (let i = 0; i < operations.length; i += 4_000) {
      const res = await search.bulk({ operations: operations.slice(i, i + 4_000) }, { requestTimeout: 120_000 });
      if (res.errors) throw new Error(`copying index documents failed in ${lang}`);
    }
  }
  await search.indices.refresh({ index: `${world.config.elasticsearch.indexPrefix}-*` });
}

async function documentCount(world: BenchWorld): Promise<number> {
  const res = await world.services.search.count({ index: aliasName(world.config, 'event', 'en') });
  return res.count;
}

/** Upcoming lists, date windows and searches of frequent words, in each language. */
function listPaths(samples: Samples, seed: number): string[] {
  const random = seededRandom(seed + 7);
  const from = new Date().toISOString().slice(0, 10);
  const to = new Date(Date.now() + 30 * DAY_MS).toISOString().slice(0, 10);
  return Array.from({ length: 300 }, (_, i) => {
    const lang = LANGUAGES[i % LANGUAGES.length]!;
    const prefix = lang === 'en' ? '' : `/${lang}`;
    const words = samples.words[lang];
    const word = words[Math.floor(random() * words.length)];
    switch (i % 3) {
      case 0:
        return `${prefix}${ROOT}/events?per_page=50&page=${1 + (i % 2)}`;
      case 1:
        return `${prefix}${ROOT}/events?start_date=${from}&end_date=${to}&per_page=50`;
      default:
        return `${prefix}${ROOT}/events?per_page=50${word ? `&search=${encodeURIComponent(word)}` : ''}`;
    }
  });
}

const idsOf = (value: unknown): number[] =>
  (Array.isArray(value) ? value : value ? [value] : [])
    .map((item: { id?: number }) => item.id as number)
    .filter(Boolean);

/**
 * A daily series with the content of a seeded event (title, texts, venue, organizers, terms), so
 * that its list entries weigh what the usual ones do; open-ended, from tomorrow.
 */
async function dailySeries(ctx: MeasureContext, eventId: number, n: number): Promise<Record<string, unknown>> {
  const res = await fetch(`${ctx.api.url}${ROOT}/events/${eventId}`);
  if (res.status !== 200) throw new Error(`GET /events/${eventId} answered ${res.status}`);
  const event = (await res.json()) as Record<string, unknown>;
  const start = new Date(Date.now() + DAY_MS);
  start.setUTCHours(8 + (n % 12), 0, 0, 0);
  return {
    title: `${String(event.title)} (daily)`,
    description: event.description,
    excerpt: event.excerpt,
    cost: event.cost || null,
    start_date: localText(start),
    end_date: localText(new Date(start.getTime() + 90 * 60_000)),
    timezone: 'UTC',
    recurrence: ['RRULE:FREQ=DAILY'],
    venue: idsOf(event.venue),
    organizer: idsOf(event.organizer),
    categories: idsOf(event.categories),
    tags: idsOf(event.tags),
  };
}

function listRow(scenario: string, result: LoadResult, reference: LoadResult | null, note: string): Row {
  const failed = otherAnswers(result);
  return {
    scenario,
    rps: result.rps,
    p50: result.latency.p50,
    p99: result.latency.p99,
    baselineRps: reference?.rps ?? null,
    ratio: reference ? result.rps / reference.rps : null,
    peakRssMb: null,
    notes: `${note}${failed ? `; FAILED: ${failed}` : ''}`,
  };
}

export async function measureRecurringOnFreshWorld(
  main: BenchWorld,
  settings: RecurringSettings,
): Promise<{ rows: Row[]; measured: RecurringMeasured; details: Record<string, unknown> }> {
  const world = await openWorld(settings.log, { urls: main.urls });
  try {
    await seedAndIndex(world, Math.min(settings.events, RECURRING_SEEDED_EVENTS), settings.seed, settings.log);
    await fillIndexTo(world, settings.events);
    const baseDocs = await documentCount(world);
    const samples = await drawSamples(world.services, settings.seed);
    const servers = await startServers(world, { ...settings, workerLogLevel: 'debug' });
    try {
      const ctx: MeasureContext = {
        world,
        ...servers,
        connections: LIST_CONNECTIONS,
        duration: settings.duration,
        warmup: settings.warmup,
        requests: settings.requests,
        writeRate: 0,
        writeSeconds: 0,
        workDir: settings.workDir,
        loadScript: settings.scripts.load,
      };
      const load = (paths: string[]) =>
        runLoad(
          {
            url: ctx.api.url,
            connections: LIST_CONNECTIONS,
            ...loadWindow(ctx),
            method: 'GET',
            paths,
          },
          ctx,
        );
      const paths = listPaths(samples, settings.seed);
      // A fresh API compiles and fills its caches on its first loads: not measured.
      await load(paths);
      settings.log(`measuring lists at ${baseDocs} event documents per language`);
      const base = await load(paths);

      const seriesCount = Math.max(1, Math.round(settings.events * SERIES_PER_EVENT));
      settings.log(`writing ${seriesCount} daily series and waiting for the worker to index them`);
      const written = Date.now();
      for (let n = 0; n < seriesCount; n++)
        await postEvent(ctx, await dailySeries(ctx, samples.eventIds[n % samples.eventIds.length] as number, n));
      await drained(world);
      const indexSeconds = (Date.now() - written) / 1000;
      await merged(world);
      const largeDocs = await documentCount(world);
      settings.log(`${largeDocs} event documents per language after ${indexSeconds.toFixed(1)} s; measuring lists`);
      const large = await load(paths);
      // Occurrences make a list long enough for issue 30's depth (50,000) and export (70,000).
      const depth = await measureDepth(ctx, settings.log, ' beside daily series');

      const workerLog = `${settings.workDir}/worker-${world.runId}.log`;
      const weekly = await weeklyIndexTimes(ctx, workerLog, settings.smoke ? 2 : 7);
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;
      const weeklyIndexMs = weekly.length
        ? { p50: median(weekly.map((t) => t.total)), max: weekly.at(-1)!.total }
        : null;

      // Last: rules accepted here (201) add series the worker expands.
      settings.log('timing hostile rules');
      const hostile = await timeHostileRules(ctx.api.url, world.adminKey, settings.smoke ? 2 : 5, {
        start_date: localText(new Date(Date.now() + 7 * DAY_MS)),
        end_date: localText(new Date(Date.now() + 7 * DAY_MS + 3_600_000)),
        timezone: 'Europe/Paris',
      });

      const p50Ratio = large.latency.p50 / Math.max(1, base.latency.p50);
      const p99Ratio = large.latency.p99 / Math.max(1, base.latency.p99);
      const rows: Row[] = [
        listRow(
          `14. GET /events at ${baseDocs} docs`,
          base,
          null,
          `${LIST_CONNECTIONS} connections; ${paths.length} paths`,
        ),
        listRow(
          `14. GET /events at ${largeDocs} docs (${seriesCount} daily series)`,
          large,
          base,
          `latency over the ${baseDocs}-doc list: p50 ${p50Ratio.toFixed(2)}x, p99 ${p99Ratio.toFixed(2)}x; series indexed in ${indexSeconds.toFixed(1)} s`,
        ),
        {
          scenario: '15. index a two-year weekly series (worker)',
          rps: null,
          p50: weeklyIndexMs?.p50 ?? null,
          p99: weeklyIndexMs?.max ?? null,
          baselineRps: null,
          ratio: null,
          peakRssMb: null,
          notes:
            `p99 column: max of ${weekly.length}; the worker's claim to indexed and completed, from its log ` +
            `(${weekly.map((t) => t.total).join(', ')} ms); p50 prepared ${median(weekly.map((t) => t.prepared))} ms, ` +
            `bulk and stale deletion ${median(weekly.map((t) => t.flushed - t.prepared))} ms`,
        },
        ...depth.rows,
        ...hostileRows(hostile),
      ];
      return {
        rows,
        measured: {
          baseDocs,
          largeDocs,
          p50Ratio,
          p99Ratio,
          weeklyIndexMs,
          depth: { cursorRatio: depth.cursorRatio, exportPeakRssMb: depth.exportPeakRssMb },
          hostile,
        },
        details: { baseDocs, largeDocs, base, large, seriesCount, indexSeconds, weekly, depth: depth.details, hostile },
      };
    } finally {
      await servers.stop();
    }
  } finally {
    await world.close(false).catch((err: Error) => settings.log(`cleanup of the recurring world: ${err.message}`));
  }
}
