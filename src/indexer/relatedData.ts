import type { Services } from '../services/container';
import type { StoredRecord } from '../storage/storedRecord';
import type { EventDoc } from '../storage/stores';
import { postEventStats } from '../storage/termQueries';
import type { RelatedData } from '../search/documents';
import { EVENT_LINKS, PLURAL, type LinkedKind, type RecordKind } from '../domain/kinds';

const empty = (): RelatedData => ({
  venues: new Map(),
  organizers: new Map(),
  categories: new Map(),
  tags: new Map(),
  eventStats: new Map(),
});

function linkedIds(records: StoredRecord<EventDoc>[], field: (typeof PLURAL)[LinkedKind]): number[] {
  const ids = new Set<number>();
  for (const record of records) {
    for (const doc of Object.values(record.docs)) for (const id of doc?.[field] ?? []) ids.add(id);
  }
  return [...ids];
}

/** Loads from MongoDB what the index documents of `records` (all of `kind`) need besides them. */
export async function loadRelated(
  services: Services,
  kind: RecordKind,
  records: StoredRecord<any>[],
): Promise<RelatedData> {
  const related = empty();
  const { stores } = services;
  if (kind === 'event') {
    const events = records as StoredRecord<EventDoc>[];
    [related.venues, related.organizers, related.categories, related.tags] = await Promise.all([
      stores.venues.getMany(linkedIds(events, 'venues')),
      stores.organizers.getMany(linkedIds(events, 'organizers')),
      stores.categories.getMany(linkedIds(events, 'categories')),
      stores.tags.getMany(linkedIds(events, 'tags')),
    ]);
  } else if (kind === 'venue' || kind === 'organizer') {
    related.eventStats = await postEventStats(
      stores.events,
      PLURAL[kind],
      records.map((r) => r.id),
    );
  }
  return related;
}

/**
 * Removes from storage the events' links to records deleted for good that `related` (loaded for
 * them) found missing: what a delete's unlinking missed, a write that checked the record before
 * the delete and linked it after. Reads and lists never show such links; this keeps storage clean.
 */
export async function dropDeletedLinks(
  services: Services,
  events: StoredRecord<EventDoc>[],
  related: RelatedData,
): Promise<void> {
  for (const [, field] of EVENT_LINKS) {
    for (const id of linkedIds(events, field).filter((linked) => !related[field].has(linked))) {
      const holders = await services.stores.events.unlinkEverywhere(field, id);
      if (holders.length > 0)
        services.log.info({ field, id, events: holders }, 'sync: removed links to a deleted record');
    }
  }
}

/** IDs of the events linking any of `ids` (records of `kind`), from the series or one of its occurrences. */
export async function eventsLinking(services: Services, kind: LinkedKind, ids: number[]): Promise<number[]> {
  const { events } = services.stores;
  const field = PLURAL[kind];
  if (field !== 'venues' && field !== 'organizers') return events.idsWithAny(field, ids);
  const [linking, byOccurrence] = await Promise.all([
    events.idsWithAny(field, ids),
    events.idsWithAny(`occurrence_overrides.${field}` as keyof EventDoc & string, ids),
  ]);
  return [...new Set([...linking, ...byOccurrence])];
}
