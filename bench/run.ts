import { mkdir, rm } from 'node:fs/promises';
import { BenchUsageError, parseBenchArgs, type BenchOptions } from './args';
import { buildApi, buildFolder, SOURCE_SCRIPTS } from './build';
import { measureIntegrations } from './integrationScenarios';
import { measureThroughput, SMOKE_REQUESTS, type MeasureContext } from './measure';
import { resultsPath } from './processes';
import { summariseProfiles } from './profile';
import { measureReindex } from './reindexBench';
import { machineDescription, textTable, writeReport, type BenchReport, type Row } from './report';
import { measureCaching } from './cachingBench';
import {
  checkParity,
  drawSamples,
  facetPaths,
  geoPaths,
  readPaths,
  searchPaths,
  suggestPaths,
  type ParityKind,
  type Samples,
  type ScenarioPaths,
} from './scenarios';
import { seedAndIndex } from './seed';
import { startServers, type ServerSettings, type Servers } from './servers';
import { evaluateTargets, type Measured } from './targets';
import { openWorld } from './world';
import { measureWritesOnFreshWorld, WRITE_WORLD_EVENTS } from './writeScenario';
import { measureRecurringOnFreshWorld } from './recurringScenario';

/**
 * `npm run bench`: seeds a fresh database and index prefix, then measures the API against bare
 * baselines on the same engines and data, scenario by scenario; prints one table, writes it as
 * JSON and Markdown under results/, and with --check exits 1 naming every missed target.
 */
const log = (line: string) => console.error(`[bench] ${line}`);

const wanted = (options: BenchOptions, name: string) => !options.only || options.only.includes(name);

interface ThroughputScenario {
  key: string;
  name: string;
  paths: ScenarioPaths;
  kind: ParityKind;
  /** What the API is compared with: the bare baseline, or the API itself on the baseline paths. */
  against: 'baseline' | 'api';
}

/** The throughput scenarios (1-3, 6, 7) asked for by --only, with their API and comparison paths. */
function readScenarios(options: BenchOptions, samples: Samples): ThroughputScenario[] {
  const scenarios: ThroughputScenario[] = [
    { key: 'read', name: '1. GET /events/{id}', paths: readPaths(samples), kind: 'read', against: 'baseline' },
    {
      key: 'search',
      name: '2. GET /events?search=',
      paths: searchPaths(samples, options.seed),
      kind: 'list',
      against: 'baseline',
    },
    {
      key: 'geo',
      name: '3. GET /events geo+dates+category',
      paths: geoPaths(samples, options.seed),
      kind: 'list',
      against: 'baseline',
    },
    {
      key: 'facets',
      name: '6. GET /events facets(4)+histogram vs without',
      paths: facetPaths(samples, options.seed),
      kind: 'same-list',
      against: 'api',
    },
    {
      key: 'suggest',
      name: '7. GET /suggest',
      paths: suggestPaths(samples, options.seed),
      kind: 'suggest',
      against: 'baseline',
    },
  ];
  return scenarios.filter((scenario) => wanted(options, scenario.key));
}

/** Seconds each load is warmed up for before it is measured; a smoke run only checks that the warm-up runs. */
const WARMUP_SECONDS = 3;
const SMOKE_WARMUP_SECONDS = 0.5;

/** Scenarios measured on worlds of their own: the seeded one is not needed for them alone. */
const OWN_WORLD_SCENARIOS = ['write', 'recurring'];

/** Requests whose CPU each server spends is timed after the load: reads by ID (issue 32), facet lists (issue 29). */
const CPU_REQUESTS = 2000;

/** Scenarios whose targets are their own (issue 29), not the lists' of issue 8. */
const DISCOVERY_SCENARIOS = ['facets', 'suggest'];

/** Runs one scenario; a failure becomes a row (and a missed target) instead of ending the run. */
async function attempt(name: string, rows: Row[], failures: string[], run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    const message = (err as Error).message.split('\n')[0] as string;
    log(`${name} failed: ${message}`);
    failures.push(`${name}: ${message}`);
    rows.push({
      scenario: name,
      rps: null,
      p50: null,
      p99: null,
      baselineRps: null,
      ratio: null,
      peakRssMb: null,
      notes: `FAILED: ${message}`,
    });
  }
}

async function main(): Promise<number> {
  const options = parseBenchArgs(process.argv.slice(2));
  const startedAt = new Date().toISOString();
  const outDir = resultsPath(options.out);
  const workDir = resultsPath(options.out, `work-${process.pid}`);
  const profileDir = resultsPath(options.out, 'profiles', startedAt.replace(/[:.]/g, '-'));
  await mkdir(workDir, { recursive: true });
  const world = await openWorld(log, { reuse: options.reuse });
  log(
    `run ${world.runId}: database ${world.config.mongo.database}, index prefix ${world.config.elasticsearch.indexPrefix}`,
  );
  const rows: Row[] = [];
  const details: Record<string, unknown> = {};
  const measured: Measured = {
    lists: [],
    connections: options.connections,
    lagP99Ms: null,
    lagUnseen: 0,
    failures: [],
    reindexRatio: null,
    readCpu: null,
    apiPeakRssMb: null,
    reindexRss: null,
    facetCost: null,
    suggest: null,
    caching: null,
    integration: null,
    recurring: null,
  };
  let servers: Servers | undefined;
  try {
    const ownWorldsOnly = options.only?.every((name) => OWN_WORLD_SCENARIOS.includes(name)) ?? false;
    if (options.reuse) log(`reusing the data of run ${options.reuse}`);
    else if (!ownWorldsOnly) details.seed = (await seedAndIndex(world, options.events, options.seed, log)).counts;
    if (options.only?.every((name) => name === 'seed')) return 0;
    const settings: ServerSettings = {
      scripts: options.api === 'build' ? await buildApi(buildFolder(world.runId)) : SOURCE_SCRIPTS,
      nodeArgs: [
        ...(process.env.BENCH_API_NODE_OPTIONS?.split(' ').filter(Boolean) ?? []),
        ...(options.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
      ],
      workDir,
      log,
    };
    const context = {
      connections: options.connections,
      duration: options.duration,
      warmup: options.smoke ? SMOKE_WARMUP_SECONDS : WARMUP_SECONDS,
      ...(options.smoke ? { requests: SMOKE_REQUESTS } : {}),
      writeSeconds: options.smoke ? options.duration : Math.max(options.duration, 10),
      writeRate: options.writeRate,
      workDir,
      loadScript: settings.scripts.load,
    };
    let apiPeak = 0;
    // Samples come from the seeded world, a scan on jongodb: only drawn when a read scenario runs.
    const caching = wanted(options, 'caching');
    const integrations = wanted(options, 'integration');
    const samples = ['read', 'search', 'geo', 'caching', ...DISCOVERY_SCENARIOS].some((key) => wanted(options, key))
      ? await drawSamples(world.services, options.seed)
      : null;
    const reads = samples ? readScenarios(options, samples) : [];
    if (reads.length > 0 || caching || integrations) {
      servers = await startServers(world, settings);
      const ctx: MeasureContext = { ...context, world, ...servers };
      const parity: Record<string, string> = {};
      for (const scenario of reads) {
        await attempt(scenario.name, rows, measured.failures, async () => {
          const against = scenario.against === 'api' ? { ...ctx, baseline: ctx.api } : ctx;
          const mismatch = await checkParity(ctx.api.url, against.baseline.url, scenario.paths, scenario.kind);
          parity[scenario.key] = mismatch ?? 'same results';
          if (mismatch) log(`WARNING: API and baseline differ: ${mismatch}`);
          log(`measuring ${scenario.name}`);
          const timedCpu = scenario.key === 'read' || scenario.key === 'facets';
          const cpuRequests = !timedCpu ? 0 : options.smoke ? 50 : CPU_REQUESTS;
          // Facets: the request cache answers the facet list's searches, so Elasticsearch's share is timed too.
          const elasticsearchUrl = scenario.key === 'facets' ? world.urls.elasticsearchUrl : undefined;
          const result = await measureThroughput(against, scenario.name, scenario.paths, cpuRequests, elasticsearchUrl);
          if (result.cpu && scenario.key === 'read') measured.readCpu = result.cpu;
          rows.push(result.row);
          details[scenario.key] = { api: result.api, baseline: result.baseline };
          const ratio = result.row.ratio as number;
          if (scenario.key === 'facets') measured.facetCost = 1 / ratio;
          else if (scenario.key === 'suggest') measured.suggest = { ratio, p50: result.api.latency.p50 };
          else
            measured.lists.push({
              key: scenario.key,
              scenario: scenario.name,
              ratio,
              p99: result.api.latency.p99,
              baselineP99: result.baseline.latency.p99,
            });
          apiPeak = Math.max(apiPeak, result.apiPeakRssMb);
          log(textTable([result.row]).split('\n').pop() as string);
        });
      }
      if (reads.length > 0) details.parity = parity;
      if (caching && samples) {
        await attempt('8. HTTP caching', rows, measured.failures, async () => {
          log('measuring 304 revalidations, compression and the feed');
          const cached = await measureCaching(ctx, samples.eventIds);
          rows.push(...cached.rows);
          details.caching = cached.details;
          measured.caching = cached.measured;
          for (const row of cached.rows) log(textTable([row]).split('\n').pop() as string);
        });
      }
      if (integrations) {
        await attempt('11-13. cursors, /changes, export', rows, measured.failures, async () => {
          const result = await measureIntegrations(ctx, log);
          rows.push(...result.rows);
          details.integration = result.details;
          measured.integration = {
            cursorRatio: result.cursorRatio,
            changesRatio: result.changesRatio,
            freshChangesRatio: result.freshChangesRatio,
            exportPeakRssMb: result.exportPeakRssMb,
          };
          apiPeak = Math.max(apiPeak, ...result.rows.map((row) => row.peakRssMb ?? 0));
        });
      }
      await servers.stop();
    }
    if (wanted(options, 'write')) {
      await attempt(`4. POST /events at ${options.writeRate}/s`, rows, measured.failures, async () => {
        log(`measuring writes at ${options.writeRate}/s on a fresh database of ${WRITE_WORLD_EVENTS} events`);
        const writes = await measureWritesOnFreshWorld(world, { ...settings, seed: options.seed, context });
        rows.push(...writes.rows);
        details.write = { api: writes.api, baseline: writes.baseline, events: WRITE_WORLD_EVENTS };
        measured.lagP99Ms = writes.api.lag?.p99 ?? null;
        measured.lagUnseen = writes.api.lag?.unseen ?? 0;
        apiPeak = Math.max(apiPeak, writes.apiPeakRssMb);
      });
    }
    if (wanted(options, 'recurring')) {
      await attempt('14-16. recurring events', rows, measured.failures, async () => {
        log('measuring lists beside daily series, a weekly series indexed, hostile rules (a world of their own)');
        const recurring = await measureRecurringOnFreshWorld(world, {
          ...settings,
          seed: options.seed,
          events: options.events,
          smoke: options.smoke,
          duration: options.duration,
          warmup: context.warmup,
          requests: context.requests,
        });
        rows.push(...recurring.rows);
        details.recurring = recurring.details;
        measured.recurring = recurring.measured;
        for (const row of recurring.rows) log(textTable([row]).split('\n').pop() as string);
      });
    }
    measured.apiPeakRssMb = apiPeak || null;
    // The reindex runs alone: every server child is stopped by now.
    if (wanted(options, 'reindex')) {
      await attempt('5. reindex', rows, measured.failures, async () => {
        const reindexed = await measureReindex(world, {
          workDir,
          scripts: settings.scripts,
          scaleTo: options.reindexScale,
          seed: options.seed,
          log,
        });
        rows.push(...reindexed.rows);
        details.reindex = reindexed.details;
        measured.reindexRatio = reindexed.ratio;
        measured.reindexRss = reindexed.rss;
      });
    }
  } finally {
    await servers?.stop();
    await world.close(options.keep).catch((err: Error) => log(`cleanup: ${err.message}`));
    if (options.keep) log(`data kept: measure it again with --reuse ${world.runId}; logs in ${workDir}`);
    else await rm(workDir, { recursive: true, force: true }).catch(() => undefined);
    await rm(buildFolder(world.runId), { recursive: true, force: true }).catch(() => undefined);
  }
  if (options.cpuProf) details.profile = await summariseProfiles(profileDir, log);

  const targets = options.smoke ? [] : evaluateTargets(measured);
  const report: BenchReport = {
    startedAt,
    machine: machineDescription(),
    options: {
      events: options.events,
      duration: options.duration,
      connections: options.connections,
      writeRate: options.writeRate,
      api: options.api,
      smoke: options.smoke,
    },
    rows,
    targets,
    details,
  };
  const file = await writeReport(outDir, report);
  console.log(`\n${textTable(rows)}\n`);
  for (const target of targets) console.log(`${target.ok ? 'pass' : 'FAIL'}  ${target.name}: ${target.measured}`);
  console.log(`\nresults: ${file}`);
  const failed = targets.filter((t) => !t.ok);
  if (options.check && failed.length > 0) {
    console.error(
      `\nbench: ${failed.length} target(s) missed:\n${failed.map((t) => `  - ${t.name} (measured ${t.measured})`).join('\n')}`,
    );
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`bench: ${err instanceof BenchUsageError ? err.message : (err.stack ?? err.message)}`);
    process.exit(2);
  },
);
