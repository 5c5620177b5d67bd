import { NotFoundError } from '../../domain/errors';
import { presentEventDates } from '../../domain/eventDates';
import { horizonOf } from '../../domain/recurrence/check';
import type { Occurrence } from '../../domain/recurrence/expand';
import { findOccurrence, occurrenceVariant } from '../../domain/recurrence/overrides';
import type { Caller } from '../../services/queries/eventList';
import { eventJsonLd, type JsonLdEventSource } from '../../presenters/jsonLd';
import { occurrenceLink } from '../../search/documents';
import type { Services } from '../../services/container';
import { viewOf } from '../../services/views/recordViews';
import { inLanguage, type StoredRecord } from '../../storage/storedRecord';
import type { EventDoc } from '../../storage/stores';
import type { Resource } from '../resource/resource';
import type { EventReadInput } from './schema';

export type EventResource = Resource<EventDoc, any, EventReadInput>;

/** Occurrence `recurrenceId` of the event, at its dates (404 when the event has no such occurrence). */
export function occurrenceOf(services: Services, record: StoredRecord<EventDoc>, recurrenceId: string): Occurrence {
  const doc = inLanguage(record, record.originalLang);
  const occurrence = findOccurrence(doc, recurrenceId, horizonOf(services.config.recurrence, new Date()));
  if (occurrence) return occurrence;
  throw new NotFoundError(
    'rest-occurrence-not-found',
    doc.recurrence?.length
      ? `The event ${record.id} has no occurrence ${recurrenceId} (cancelled, or not in its rule before the horizon).`
      : `The event ${record.id} is not recurring: it has no occurrences.`,
  );
}

/** The series record as occurrence `recurrenceId` changed it (in each language), its dates aside. */
export function occurrenceRecord(record: StoredRecord<EventDoc>, recurrenceId: string): StoredRecord<EventDoc> {
  return {
    ...record,
    docs: Object.fromEntries(
      Object.entries(record.docs).map(([lang, doc]) => [lang, occurrenceVariant(doc, recurrenceId)]),
    ),
  } as StoredRecord<EventDoc>;
}

/** One occurrence as a read shows it: the series record as that occurrence changed it, at its dates. */
export async function presentOccurrence(
  res: EventResource,
  record: StoredRecord<EventDoc>,
  occurrence: Occurrence,
  caller: Caller,
): Promise<Record<string, unknown>> {
  const { services, def } = res;
  const variant = occurrenceRecord(record, occurrence.recurrenceId);
  const [presented] = await viewOf('event')(services, [variant], caller.lang, { embeddedCounts: 'index-if-current' });
  const shown = def.visibleTo ? def.visibleTo(presented!, caller.principal) : presented!;
  const doc = inLanguage(record, record.originalLang);
  const body: Record<string, unknown> = {
    ...shown,
    ...presentEventDates({ ...doc, all_day: Boolean(doc.all_day), start: occurrence.start, end: occurrence.end }),
  };
  body.occurrence = occurrenceLink(record.id, occurrence, String(shown.rest_url ?? ''));
  return { ...body, json_ld: eventJsonLd(body as JsonLdEventSource) };
}
