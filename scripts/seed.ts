import { announceLinks, connectForOps, parseFlags, parsePositiveInt, runCli } from '../src/tools/cli';
import { seedDemo, type SeedIndexMode } from '../src/tools/demo/demoData';
import { UsageError } from '../src/indexer/opsError';
import { progressTo, startProgress } from '../src/indexer/progress';

const USAGE = 'usage: npm run seed -- --events N [--seed S] [--index reindex|worker|none]';
const MODES: SeedIndexMode[] = ['reindex', 'worker', 'none'];

/**
 * `npm run seed`: demo data in en/fr/de (src/tools/demo/demoData.ts) in the dev services (or
 * MONGO_URL / ELASTICSEARCH_URL). By default the indexes are rebuilt at the end (`--index
 * reindex`), so the data is searchable at once; `worker` leaves it to the API's sync worker.
 */
runCli('seed', async (argv, signal) => {
  const flags = parseFlags(
    argv,
    { events: { type: 'string' }, seed: { type: 'string' }, index: { type: 'string' } },
    USAGE,
  );
  if (flags.events === undefined) throw new UsageError(`--events is required; ${USAGE}`);
  const events = parsePositiveInt('events', flags.events, 0, 1_000_000, USAGE);
  const seed = parsePositiveInt('seed', flags.seed, 1, 2 ** 31 - 1, USAGE);
  const index = (flags.index ?? 'reindex') as SeedIndexMode;
  if (!MODES.includes(index))
    throw new UsageError(`unknown --index "${flags.index}": use one of ${MODES.join(', ')}; ${USAGE}`);
  const services = await connectForOps({ needsSearch: index !== 'none', signal });
  try {
    if (index === 'reindex') announceLinks('seed', services.config);
    const progress = startProgress({ label: 'seed events', total: events });
    let reported = 0;
    const result = await seedDemo(services, {
      events,
      seed,
      index,
      signal,
      onProgress: (done) => {
        progress.tick(done - reported);
        reported = done;
        if (done >= events) progress.finish();
      },
      reindex: { signal, progress: progressTo(), say: (line) => console.log(line) },
    });
    const { counts } = result;
    console.log(
      `seeded ${counts.events} events, ${counts.venues} venues, ${counts.organizers} organizers, ${counts.categories} categories, ${counts.tags} tags in ${result.seconds.toFixed(1)} s`,
    );
    if (index === 'worker') console.log('the sync worker (npm start or npm run worker) indexes them');
    if (index === 'none') console.log('nothing indexed: run "npm run reindex" to make them searchable');
    return 0;
  } finally {
    await services.close();
  }
});
