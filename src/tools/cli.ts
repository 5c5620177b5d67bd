import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, LANGUAGES, loadConfig, type Config, type Language } from '../../config';
import { withRunningServerUrls } from '../dev/embeddedServices';
import { createLogger } from '../lib/log';
import { isStorageUnavailable, mongoUnreachable, withoutPassword } from '../storage/mongo';
import { createSearchClient, pingSearch } from '../search/client';
import { openServices, type Services } from '../services/container';
import { HelpRequested, InterruptedError, OpsError, UnreachableError, UsageError } from '../indexer/opsError';
import { PLURAL, RECORD_KINDS, type RecordKind } from '../domain/kinds';
import { loadEmbeddedSettings } from '../../config/embedded';
import { matchIndexesToDatabase } from '../indexer/indexIdentity';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** Parses flags strictly; any mistake is a UsageError carrying `usage`. */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
  usage: string,
) {
  if (argv.includes('-h') || argv.includes('--help')) throw new HelpRequested(usage);
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: false, strict: true, tokens: true });
  } catch (err) {
    throw new UsageError(`${parseArgsProblem((err as Error).message)}; ${usage}`);
  }
  // parseArgs keeps the last of a repeated flag: `--kind events --kind venues` would rebuild venues only.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given twice: give it once; ${usage}`);
    seen.add(token.name);
  }
  return parsed.values;
}

/** node's parseArgs message in one line: its first sentence, and how to write a value starting with a dash. */
export function parseArgsProblem(message: string): string {
  const [first] = message.split(/\.\s+/);
  const flag = /'(--[\w-]+)'/.exec(message)?.[1];
  // `--batch -5`: the value looks like an option.
  return /argument is ambiguous/.test(message) && flag
    ? `${flag} needs a value: one that starts with "-" is written ${flag}=VALUE`
    : (first ?? message);
}

const KIND_BY_NAME = new Map<string, RecordKind>(RECORD_KINDS.map((kind) => [PLURAL[kind], kind]));

export function parseKinds(value: string | undefined, usage: string): RecordKind[] {
  if (value === undefined || value === 'all') return [...RECORD_KINDS];
  const kind = KIND_BY_NAME.get(value);
  if (!kind)
    throw new UsageError(
      `unknown --kind "${value}": use one of ${[...KIND_BY_NAME.keys()].join(', ')} or all; ${usage}`,
    );
  return [kind];
}

export function parseLangs(value: string | undefined, usage: string): Language[] {
  if (value === undefined || value === 'all') return [...LANGUAGES];
  if (!LANGUAGES.includes(value as Language))
    throw new UsageError(`unknown --lang "${value}": use one of ${LANGUAGES.join(', ')} or all; ${usage}`);
  return [value as Language];
}

export function parsePositiveInt(
  name: string,
  value: string | undefined,
  fallback: number,
  max: number,
  usage: string,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max)
    throw new UsageError(`--${name} must be a whole number from 1 to ${max}, not "${value}"; ${usage}`);
  return n;
}

/** MONGO_URL / ELASTICSEARCH_URL, else the servers of `npm run services:start`. */
async function resolveUrls(config: Config): Promise<Config> {
  const resolved = await withRunningServerUrls(config, PROJECT_ROOT, loadEmbeddedSettings());
  if (resolved) return resolved;
  throw new UnreachableError(
    'no MongoDB / Elasticsearch to connect to: set MONGO_URL and ELASTICSEARCH_URL, or run "npm run services:start" first',
  );
}

/**
 * Index documents carry links built from this process's settings: says which, since a shell
 * without the API's PUBLIC_API_URL and SITE_URL would index links to the wrong place.
 */
export function announceLinks(name: string, config: Config): void {
  process.stderr.write(
    `${name}: links start with ${config.apiUrl} (PUBLIC_API_URL) and ${config.siteUrl} (SITE_URL): the API's own settings?\n`,
  );
}

async function searchAnswers(url: string, timeoutMs: number): Promise<boolean> {
  const probe = createSearchClient({ url, timeoutMs });
  try {
    return await pingSearch(probe);
  } finally {
    await probe.close();
  }
}

/**
 * Connects like the API does, with one clear line when a server does not answer; Elasticsearch
 * is not asked when the operation will not use it (`needsSearch: false`).
 */
export async function connectForOps({
  needsSearch = true,
  signal,
}: { needsSearch?: boolean; signal?: AbortSignal } = {}): Promise<Services> {
  const config = await resolveUrls(loadConfig());
  const esUrl = config.elasticsearch.url as string;
  if (needsSearch && !(await searchAnswers(esUrl, config.elasticsearch.timeoutMs)))
    throw new UnreachableError(
      `Elasticsearch does not answer at ${withoutPassword(esUrl)}: start it (npm run services:start) or set ELASTICSEARCH_URL`,
    );
  // Operator output is the progress and report; the service log only for warnings unless asked.
  const log = createLogger(process.env.LOG_LEVEL ? config.logLevel : 'warn');
  let services: Services;
  try {
    services = await openServices(config, log);
  } catch (err) {
    // Only an unreachable server is one: others (a refused login, a bad setting, a bug) say what they are.
    if (!(err instanceof Error) || !isStorageUnavailable(err)) throw err;
    throw new UnreachableError(mongoUnreachable(config.mongo.url as string, err));
  }
  // Indexes built from another database are rebuilt from this one before anything reads them.
  if (needsSearch) await matchIndexesToDatabase(services, signal).catch(closingOn(services));
  return services;
}

function closingOn(services: Services): (err: unknown) => Promise<never> {
  return async (err) => {
    await services.close();
    throw err;
  };
}

/** A Ctrl-C this soon after the first is the same one, relayed. */
const SECOND_INTERRUPT_AFTER_MS = 1_000;

/** Exit codes of a run stopped by a signal (128 + its number, as shells report it). */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Runs a script's main: Ctrl-C or SIGTERM (a service manager, `timeout`, a cancelled CI job)
 * aborts `signal`, the operation cleans up, and a second one exits at once; errors become one
 * line on stderr; `-h`/`--help` prints the usage. Exit codes: main's, 2 for usage and
 * configuration mistakes, 3 when MongoDB or Elasticsearch cannot be reached, 130 (Ctrl-C) or 143
 * (SIGTERM) when interrupted, 1 for any other failure.
 */
export function runCli(name: string, main: (argv: string[], signal: AbortSignal) => Promise<number>): void {
  const controller = new AbortController();
  let interruptedAt = 0;
  let interruptedBy: keyof typeof SIGNAL_EXIT = 'SIGINT';
  for (const signal of Object.keys(SIGNAL_EXIT) as (keyof typeof SIGNAL_EXIT)[]) {
    process.on(signal, () => {
      // One Ctrl-C can arrive twice: from the terminal and relayed by a wrapper (npm, tsx) in the
      // same process group. Only a second one sent later quits without cleaning up.
      if (controller.signal.aborted) {
        if (Date.now() - interruptedAt >= SECOND_INTERRUPT_AFTER_MS) process.exit(SIGNAL_EXIT[signal]);
        return;
      }
      interruptedAt = Date.now();
      interruptedBy = signal;
      const again = signal === 'SIGINT' ? 'Ctrl-C again' : 'a second SIGTERM';
      process.stderr.write(
        `\n${name}: ${signal === 'SIGINT' ? 'interrupting' : 'terminating'}, cleaning up (${again} to quit at once)\n`,
      );
      controller.abort();
    });
  }
  main(process.argv.slice(2), controller.signal).then(
    (code) => process.exit(code),
    (err: Error) => {
      if (err instanceof HelpRequested) {
        console.log(err.message);
        process.exit(0);
      }
      const message =
        err instanceof OpsError || err instanceof UsageError || err instanceof ConfigError
          ? err.message
          : `${err.message.split('\n')[0]}`;
      console.error(`${name}: ${message}`);
      if (err instanceof UsageError || err instanceof ConfigError) process.exit(2);
      if (err instanceof UnreachableError) process.exit(3);
      process.exit(err instanceof InterruptedError ? SIGNAL_EXIT[interruptedBy] : 1);
    },
  );
}
