/**
 * Realistic demo data in three languages (`npm run seed`, scripts/seed.ts; the benchmarks).
 *
 *   seedDemo(services, options) → Promise<SeedResult>
 *
 * options:
 *   events      number of events to create (required; written with bulk inserts)
 *   seed        PRNG seed (default 1): the same seed (and `now`) gives the same content
 *   now         anchor of past/upcoming dates (default: today 00:00 UTC)
 *   index       'worker'  (default) the records are queued: a running sync worker indexes them
 *               'reindex' nothing is queued; a reindex of every kind runs at the end
 *               'none'    nothing is queued or indexed (run `npm run reindex` later)
 *   chunkSize   events per bulk insert (default 1000)
 *   onProgress  (eventsDone, eventsTotal) after each bulk insert
 *   reindex     options passed to the final reindex (progress, say...) when index = 'reindex'
 * result: { counts: { events, venues, organizers, categories, tags }, ids: { same keys → IDs },
 *           seconds }. Categories and tags are reused (by English slug) when they exist.
 *
 * Venues sit in real cities (src/tools/demo/demoPlaces.ts) with coordinates near the centre, events
 * take their venue's time zone; a third are past, some all-day (and multi-day), some drafts,
 * private, password-protected or hidden from listings; titles and descriptions come from
 * templates in en/fr/de, written first in the city's language, half of them translated.
 * Records are written with RecordStore.createMany: the same document shape and sync entries as
 * the API's writes; event dates go through the API's own resolveEventDates.
 */
import { DateTime } from 'luxon';
import { hashEventPassword } from '../../domain/eventPassword';
import type { Services } from '../../services/container';
import type { NewRecord } from '../../storage/documentBuilder';
import type { EventDoc } from '../../storage/stores';
import { Dice, prng } from './demoDice';
import { demoEvent } from './demoEvents';
import { seedCategories, seedOrganizers, seedTags, seedVenues } from './demoRecords';
import { InterruptedError } from '../../indexer/opsError';
import { reindex, type ReindexOptions } from '../../indexer/reindex/reindex';

export type SeedIndexMode = 'worker' | 'reindex' | 'none';

export interface SeedOptions {
  events: number;
  seed?: number;
  now?: Date;
  index?: SeedIndexMode;
  chunkSize?: number;
  onProgress?: (done: number, total: number) => void;
  reindex?: Omit<ReindexOptions, 'kinds' | 'langs' | 'dryRun'>;
  /** Ctrl-C: stops between chunks (what was inserted stays) with an InterruptedError. */
  signal?: AbortSignal;
}

type Kinds = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

export interface SeedResult {
  counts: Record<Kinds, number>;
  ids: Record<Kinds, number[]>;
  seconds: number;
}

export async function seedDemo(services: Services, options: SeedOptions): Promise<SeedResult> {
  const started = Date.now();
  const dice = new Dice(prng(options.seed ?? 1));
  const mode = options.index ?? 'worker';
  const queueIndexing = mode === 'worker';
  const now = DateTime.fromJSDate(options.now ?? DateTime.utc().startOf('day').toJSDate(), { zone: 'UTC' });
  const total = Math.max(0, Math.floor(options.events));

  const categories = await seedCategories(services, queueIndexing);
  const tags = await seedTags(services, queueIndexing);
  const venues = await seedVenues(
    services,
    dice,
    Math.min(2000, Math.max(8, Math.ceil(total / 50))),
    now,
    queueIndexing,
  );
  const organizers = await seedOrganizers(
    services,
    dice,
    Math.min(1000, Math.max(5, Math.ceil(total / 100))),
    now,
    queueIndexing,
  );
  const passwordHash = await hashEventPassword('demo');
  const events: number[] = [];
  const chunkSize = options.chunkSize ?? 1000;
  for (let done = 0; done < total; done += chunkSize) {
    if (options.signal?.aborted) {
      throw new InterruptedError(
        `interrupted after ${events.length} of ${total} events: they stay in the database, not indexed unless queued (run "npm run reindex")`,
      );
    }
    const chunk: NewRecord<EventDoc>[] = [];
    for (let i = done; i < Math.min(total, done + chunkSize); i++) {
      chunk.push(demoEvent(dice, now, { venues, organizers, categories, tags, passwordHash }));
    }
    events.push(...(await services.stores.events.createMany(chunk, { queueIndexing })));
    options.onProgress?.(events.length, total);
  }
  if (mode === 'reindex') await reindex(services, options.reindex ?? {});
  const ids = {
    events,
    venues: venues.map((v) => v.id),
    organizers: organizers.map((o) => o.id),
    categories: [...categories.byKey.values()],
    tags: [...tags.values()],
  };
  const counts = Object.fromEntries(Object.entries(ids).map(([kind, list]) => [kind, list.length])) as Record<
    Kinds,
    number
  >;
  return { counts, ids, seconds: (Date.now() - started) / 1000 };
}
