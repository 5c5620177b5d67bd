import { seedDemo, type SeedResult } from '../src/tools/demo/demoData';
import { waitForSearchIndexes } from '../src/search/ensureIndexes';
import type { BenchWorld } from './world';

/**
 * Seeds `events` demo events (venues in real cities, organizers, terms; en/fr/de) with bulk
 * inserts, then indexes everything with the zero-downtime reindex (no sync-queue churn).
 */
export async function seedAndIndex(
  world: BenchWorld,
  events: number,
  seed: number,
  log: (line: string) => void,
): Promise<SeedResult> {
  const { services } = world;
  await waitForSearchIndexes(services);
  let reported = 0;
  const result = await seedDemo(services, {
    events,
    seed,
    index: 'reindex',
    onProgress: (done, total) => {
      if (done - reported >= Math.max(1000, total / 10) || done === total) {
        reported = done;
        log(`seeded ${done}/${total} events`);
      }
    },
    reindex: { say: (line) => log(line) },
  });
  const { counts } = result;
  log(
    `seeded and indexed ${counts.events} events, ${counts.venues} venues, ${counts.organizers} organizers, ${counts.categories} categories, ${counts.tags} tags in ${result.seconds.toFixed(1)} s`,
  );
  return result;
}
