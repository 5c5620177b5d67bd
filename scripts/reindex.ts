import {
  announceLinks,
  connectForOps,
  parseFlags,
  parseKinds,
  parseLangs,
  parsePositiveInt,
  runCli,
} from '../src/tools/cli';
import { formatRate, progressTo } from '../src/indexer/progress';
import { DEFAULT_REINDEX_BATCH, reindex } from '../src/indexer/reindex/reindex';

const USAGE =
  'usage: npm run reindex -- [--kind events|venues|organizers|categories|tags|all] [--lang en|fr|de|all] [--batch N] [--dry-run]';

/** `npm run reindex`: rebuilds the search indexes behind their aliases while the API serves (src/tools/reindex/reindex.ts). */
runCli('reindex', async (argv, signal) => {
  const flags = parseFlags(
    argv,
    {
      kind: { type: 'string' },
      lang: { type: 'string' },
      batch: { type: 'string' },
      'dry-run': { type: 'boolean' },
    },
    USAGE,
  );
  const options = {
    kinds: parseKinds(flags.kind, USAGE),
    langs: parseLangs(flags.lang, USAGE),
    batchSize: parsePositiveInt('batch', flags.batch, DEFAULT_REINDEX_BATCH, 10_000, USAGE),
    dryRun: Boolean(flags['dry-run']),
  };
  const services = await connectForOps({ signal });
  try {
    if (!options.dryRun) announceLinks('reindex', services.config);
    const result = await reindex(services, {
      ...options,
      signal,
      progress: progressTo(),
      say: (line) => console.log(line),
    });
    const rate = result.seconds > 0 ? result.records / result.seconds : 0;
    console.log(
      result.dryRun
        ? `dry run: nothing changed (${result.records} records would be indexed)`
        : `reindexed ${result.records} records in ${result.seconds.toFixed(1)} s (${formatRate(rate)} records/s), ${result.errors} errors`,
    );
    return 0;
  } finally {
    await services.close();
  }
});
