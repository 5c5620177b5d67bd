import type { Filter } from 'mongodb';
import type { Services } from '../services';
import type { StoredRecord } from '../storage/recordStore';
import type { EventDoc } from '../storage/stores';
import type { SyncKind } from '../storage/syncQueue';
import type { RelatedData } from './documents';

/** The event field that links events to records of `kind`. */
export const LINK_FIELD = {
  venue: 'venues',
  organizer: 'organizers',
  category: 'categories',
  tag: 'tags',
} as const satisfies Partial<Record<SyncKind, keyof EventDoc>>;

export type LinkedKind = keyof typeof LINK_FIELD;

const empty = (): RelatedData => ({
  venues: new Map(),
  organizers: new Map(),
  categories: new Map(),
  tags: new Map(),
  eventStats: new Map(),
});

function linkedIds(records: StoredRecord<EventDoc>[], field: (typeof LINK_FIELD)[LinkedKind]): number[] {
  const ids = new Set<number>();
  for (const record of records) {
    for (const doc of Object.values(record.docs)) for (const id of doc?.[field] ?? []) ids.add(id);
  }
  return [...ids];
}

/** Published events per venue/organizer and the latest end among them, in one aggregation. */
async function eventStats(
  services: Services,
  field: 'venues' | 'organizers',
  ids: number[],
): Promise<RelatedData['eventStats']> {
  const stats: RelatedData['eventStats'] = new Map();
  if (ids.length === 0) return stats;
  const rows = await services.stores.events.docs
    .aggregate<{ _id: number; published: number; endMax: Date | null }>([
      // One row per event (documents are per language; links and dates are shared fields).
      { $match: { status: 'publish', [field]: { $in: ids } } },
      { $group: { _id: '$id', linked: { $first: `$${field}` }, end: { $first: '$end' } } },
      { $unwind: '$linked' },
      { $match: { linked: { $in: ids } } },
      // Latest end first, so that each group's $first is its maximum ($max is not on every server).
      { $sort: { end: -1 } },
      { $group: { _id: '$linked', published: { $sum: 1 }, endMax: { $first: '$end' } } },
    ])
    .toArray();
  for (const row of rows) stats.set(row._id, { published: row.published, endMax: row.endMax ?? null });
  return stats;
}

/** Loads from MongoDB what the index documents of `records` (all of `kind`) need besides them. */
export async function loadRelated(
  services: Services,
  kind: SyncKind,
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
    related.eventStats = await eventStats(
      services,
      LINK_FIELD[kind] as 'venues' | 'organizers',
      records.map((r) => r.id),
    );
  }
  return related;
}

/** IDs of the events linking any of `ids` (records of `kind`). */
export async function eventsLinking(services: Services, kind: LinkedKind, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const filter = { [LINK_FIELD[kind]]: { $in: ids } } as Filter<EventDoc>;
  return (await services.stores.events.docs.distinct('id', filter)) as number[];
}
