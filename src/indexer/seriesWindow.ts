import type { Config } from '../../config';
import { horizonOf } from '../domain/recurrence/check';
import { expandSeries } from '../domain/recurrence/expand';
import { parseRecurrenceLines } from '../domain/recurrence/lines';
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
    if (!doc.recurrence?.length) continue;
    const occurrences = expandSeries(parseRecurrenceLines(doc.recurrence), doc, horizon);
    series.set(
      record.id,
      occurrences.filter((occurrence) => occurrence.end >= from),
    );
  }
  return series;
}
