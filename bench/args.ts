import { parseArgs } from 'node:util';

export interface BenchOptions {
  events: number;
  /** Seconds of load per measured run (warm-up comes on top). */
  duration: number;
  connections: number;
  /** Fixed rate of the write scenario. */
  writeRate: number;
  check: boolean;
  /** Tiny run for CI: short warm-ups, no README-worthy numbers, targets never checked. */
  smoke: boolean;
  /** Also measure reindex peak RSS at this many events (`--reindex-scale [--scale-events N]`). */
  reindexScale: number | null;
  /** Profile the API child (node --cpu-prof) and summarise its top frames. */
  cpuProf: boolean;
  /** Folder of the JSON / Markdown results. */
  out: string;
  seed: number;
  /** Leave the database and indexes in place (implied by `reuse`). */
  keep: boolean;
  /** Run ID of a kept earlier run whose seeded data to measure again (no seeding). */
  reuse: string | null;
  only: string[] | null;
  /** Run the API compiled (as deployed: default) or from source with the tsx loader. */
  api: 'build' | 'source';
}

const USAGE = `usage: npm run bench -- [--events N] [--duration S] [--connections C] [--write-rate R]
       [--check] [--smoke] [--reindex-scale [--scale-events N]] [--cpu-prof] [--out DIR] [--seed N]
       [--keep] [--reuse RUN_ID] [--only seed,read,search,geo,facets,suggest,caching,integration,write,recurring,reindex] [--api build|source]`;

export const SCENARIOS = [
  'seed',
  'read',
  'search',
  'geo',
  'facets',
  'suggest',
  'caching',
  'integration',
  'write',
  'recurring',
  'reindex',
] as const;

/** A command line the bench cannot run: printed with the usage, without a stack. */
export class BenchUsageError extends Error {
  override name = 'BenchUsageError';
  constructor(problem: string) {
    super(`${problem}\n${USAGE}`);
  }
}

function positiveInt(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new BenchUsageError(`--${name} must be a positive integer, not "${text}"`);
  return value;
}

function scenarioList(text: string | undefined): string[] | null {
  if (text === undefined) return null;
  const names = text.split(',').map((s) => s.trim());
  const unknown = names.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new BenchUsageError(`--only takes ${SCENARIOS.join(', ')}; not ${unknown.map((n) => `"${n}"`).join(', ')}`);
  return names;
}

function apiMode(text: string | undefined): 'build' | 'source' {
  if (text === undefined || text === 'build' || text === 'source') return text ?? 'build';
  throw new BenchUsageError(`--api takes build or source, not "${text}"`);
}

function parsed(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        events: { type: 'string' },
        duration: { type: 'string' },
        connections: { type: 'string' },
        'write-rate': { type: 'string' },
        check: { type: 'boolean', default: false },
        smoke: { type: 'boolean', default: false },
        'reindex-scale': { type: 'boolean', default: false },
        'scale-events': { type: 'string' },
        'cpu-prof': { type: 'boolean', default: false },
        out: { type: 'string', default: 'results' },
        seed: { type: 'string' },
        keep: { type: 'boolean', default: false },
        reuse: { type: 'string' },
        only: { type: 'string' },
        api: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (err) {
    throw new BenchUsageError((err as Error).message);
  }
}

export function parseBenchArgs(argv: string[]): BenchOptions {
  const { values } = parsed(argv);
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    events: positiveInt('events', values.events, 10_000),
    duration: positiveInt('duration', values.duration, 10),
    connections: positiveInt('connections', values.connections, 32),
    writeRate: positiveInt('write-rate', values['write-rate'], 50),
    check: values.check ?? false,
    smoke: values.smoke ?? false,
    reindexScale: values['reindex-scale'] ? positiveInt('scale-events', values['scale-events'], 100_000) : null,
    cpuProf: values['cpu-prof'] ?? false,
    out: values.out ?? 'results',
    seed: positiveInt('seed', values.seed, 1),
    keep: (values.keep ?? false) || values.reuse !== undefined,
    reuse: values.reuse ?? null,
    only: scenarioList(values.only),
    api: apiMode(values.api),
  };
}
