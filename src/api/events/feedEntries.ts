import type { Language } from '../../../config';
import { presentEventDates } from '../../domain/eventDates';
import { horizonOf } from '../../domain/recurrence/check';
import {
  isSeries,
  occurrencesWithContent,
  seriesOccurrences,
  startOfRecurrenceId,
} from '../../domain/recurrence/overrides';
import type { Occurrence } from '../../domain/recurrence/expand';
import { ANONYMOUS } from '../../http/authenticate';
import type { FeedEntry } from '../../presenters/icalendar';
import type { Services } from '../../services/container';
import { viewEvents } from '../../services/views/eventView';
import { visibleEmbeds } from '../../storage/recordAccess';
import { inLanguage, type StoredRecord } from '../../storage/storedRecord';
import type { EventDoc } from '../../storage/stores';
import { occurrenceRecord } from './occurrenceView';

/** An event read from the database, and the SEQUENCE its VEVENTs carry (its sync version). */
export interface StoredFeedItem {
  record: StoredRecord<EventDoc>;
  sequence: number;
}

/**
 * The VEVENTs of each of `items` as an anonymous caller sees them, in order: one for an event; for
 * a series (RFC 5545) one with its RRULE/RDATE/EXDATE lines and one per changed occurrence (moved,
 * another venue...) with its RECURRENCE-ID. All of them presented at once: one query per kind of
 * embedded record for the lot, not per series or occurrence.
 */
export async function storedEntries(
  services: Services,
  lang: Language,
  items: StoredFeedItem[],
): Promise<FeedEntry[][]> {
  const horizon = horizonOf(services.config.recurrence, new Date());
  // Moved occurrences, and those whose fields or texts (in any language) differ from the series'.
  const changedOf = ({ record }: StoredFeedItem): Occurrence[] => {
    const doc = inLanguage(record, record.originalLang);
    if (!isSeries(doc)) return [];
    const ids = new Set([
      ...(doc.occurrence_overrides ?? []).map((override) => override.recurrence_id),
      ...occurrencesWithContent(Object.values(record.docs)),
    ]);
    if (ids.size === 0) return [];
    // Expanded once for all of them: a series may have hundreds of changed occurrences.
    const occurrences = new Map(seriesOccurrences(doc, horizon).map((o) => [o.recurrenceId, o]));
    return [...ids].flatMap((recurrenceId) => occurrences.get(recurrenceId) ?? []);
  };
  const changed = items.map(changedOf);
  const records = items.flatMap(({ record }, i) => [
    record,
    ...changed[i]!.map((occurrence) => occurrenceRecord(record, occurrence.recurrenceId)),
  ]);
  const presented = await viewEvents(services, records, lang, { embeddedCounts: 'searchable-index' });
  let next = 0;
  const shown = () => visibleEmbeds(presented[next++]!, ANONYMOUS);
  return items.map(({ record, sequence }, i): FeedEntry[] => {
    const event = shown();
    const doc = inLanguage(record, record.originalLang);
    if (!isSeries(doc)) return [{ event, sequence }];
    const dated = (start: Date, end: Date) => presentEventDates({ ...doc, all_day: Boolean(doc.all_day), start, end });
    const occurrences = changed[i]!.map((occurrence): FeedEntry => {
      const original = startOfRecurrenceId(occurrence.recurrenceId);
      const originalDates = dated(original, original);
      return {
        event: { ...shown(), ...dated(occurrence.start, occurrence.end) },
        sequence,
        originalStart: { start_date: originalDates.start_date, utc_start_date: originalDates.utc_start_date },
      };
    });
    return [{ event, sequence, recurrence: doc.recurrence! }, ...occurrences];
  });
}
