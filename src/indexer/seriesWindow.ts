import type { Config } from '../../config';
import type { Services } from '../services/container';
import { isDuplicateKey } from '../storage/mongo';
import { horizonOf } from '../domain/recurrence/check';
import { isSeries, seriesOccurrences } from '../domain/recurrence/overrides';
import type { IndexedOccurrence } from '../search/documents';
import { inLanguage, type StoredRecord } from '../storage/storedRecord';
import type { EventDoc } from '../storage/stores';

const YEAR_MS = 365 * 86_400_000;

/**
 * The occurrences of each series among `records` that the index holds: those ending from a year
 * before `now` and starting up to the horizon (EXTENSIONS part 11). Single events have none.
 */
export function indexedOccurrences(
  config: Config,
  records: StoredRecord<EventDoc>[],
  now = new Date(),
): Map<number, IndexedOccurrence[]> {
  const from = new Date(now.getTime() - YEAR_MS);
  const horizon = horizonOf(config.recurrence, now);
  const series = new Map<number, IndexedOccurrence[]>();
  for (const record of records) {
    const doc = inLanguage(record, record.originalLang);
    if (!isSeries(doc)) continue;
    const occurrences = seriesOccurrences(doc, horizon);
    series.set(
      record.id,
      occurrences.filter((occurrence) => occurrence.end >= from),
    );
  }
  return series;
}

/** Series whose occurrences all ended before the index window (they have no index document). */
export function seriesBeforeWindow(services: Services, now = new Date()): Promise<number> {
  return services.stores.events.docs
    .distinct('id', { 'recurrence.0': { $exists: true }, series_end: { $lt: new Date(now.getTime() - YEAR_MS) } })
    .then((ids) => ids.length);
}

/** How often a worker checks whether the day changed (the window moves by days). */
export const WINDOW_CHECK_MS = 15 * 60_000;

interface WindowMarker {
  _id: 'series-window';
  day: string;
}

/**
 * Moves every series' index window once a day (EXTENSIONS part 11: an open-ended weekly event is
 * always listed two years ahead): the first worker to see a new UTC day queues every series for
 * indexing, which indexes the occurrences that came into the window and drops those that left
 * it. Returns how many series were queued (0 when another worker already did it today).
 */
export async function rollSeriesWindows(services: Services, now = new Date()): Promise<number> {
  const day = now.toISOString().slice(0, 10);
  const markers = services.db.collection<WindowMarker>('series_window');
  try {
    const updated = await markers.updateOne(
      { _id: 'series-window', day: { $ne: day } },
      { $set: { day } },
      { upsert: true },
    );
    if (updated.modifiedCount === 0 && updated.upsertedCount === 0) return 0;
  } catch (err) {
    // The upsert of a marker already at today's day collides on _id: nothing to do.
    if (isDuplicateKey(err)) return 0;
    throw err;
  }
  const ids = await services.stores.events.docs.distinct('id', { 'recurrence.0': { $exists: true } });
  await services.sync.markDirty('event', ids as number[]);
  return ids.length;
}
