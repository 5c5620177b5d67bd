import { createHash } from 'node:crypto';
import type { Language } from '../../config';
import { wireToLocalIso } from '../domain/dates';
import { presentEventDates } from '../domain/eventDates';
import { plainText } from '../domain/html';
import { inLanguage, type BaseDoc, type StoredRecord } from '../storage/storedRecord';
import type { EventDoc, OrganizerDoc, TermDoc, VenueDoc } from '../storage/stores';
import type { PostEventStats } from '../storage/termQueries';
import type { RecordKind, TermKind } from '../domain/kinds';

/** What a record's index documents depend on besides the record itself, loaded per batch. */
export interface RelatedData {
  venues: Map<number, StoredRecord<VenueDoc>>;
  organizers: Map<number, StoredRecord<OrganizerDoc>>;
  categories: Map<number, StoredRecord<TermDoc>>;
  tags: Map<number, StoredRecord<TermDoc>>;
  /** Published events of each venue / organizer (by ID; venue and organizer IDs never collide). */
  eventStats: Map<number, PostEventStats>;
}

export type IndexDocument = Record<string, unknown> & { id: number; record: Record<string, unknown>; deps: string };

export interface GeoPoint {
  lat: number;
  lon: number;
}

function hash(value: unknown): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('base64');
}

function pointOf(venue: VenueDoc | undefined): GeoPoint | null {
  if (!venue || typeof venue.geo_lat !== 'number' || typeof venue.geo_lng !== 'number') return null;
  return { lat: venue.geo_lat, lon: venue.geo_lng };
}

/** The linked records an event shows (trashed ones are not embedded), in `lang`. */
function linked<D extends BaseDoc>(
  ids: number[] | undefined,
  records: Map<number, StoredRecord<D>>,
  lang: Language,
): D[] {
  return (ids ?? []).flatMap((id) => {
    const record = records.get(id);
    const doc = record ? inLanguage(record, lang) : undefined;
    return doc && (doc as { status?: string }).status !== 'trash' ? [doc] : [];
  });
}

const isPublished = (doc: { status?: string }): boolean => doc.status === 'publish';

function eventDocument(
  stored: StoredRecord<EventDoc>,
  lang: Language,
  apiRecord: Record<string, unknown>,
  related: RelatedData,
): IndexDocument {
  const doc = inLanguage(stored, lang);
  // Search text and locations come from published links only, so that no filter or `distance`
  // reveals a draft venue; `record` embeds every live link, filtered per caller when listed.
  const venues = linked(doc.venues, related.venues, lang).filter(isPublished);
  const organizers = linked(doc.organizers, related.organizers, lang).filter(isPublished);
  const categories = linked(doc.categories, related.categories, lang);
  const tags = linked(doc.tags, related.tags, lang);
  const points = venues.map(pointOf).filter((p): p is GeoPoint => p !== null);
  const isProtected = Boolean(doc.passwordHash);
  // Memoised: the view has just presented the same dates.
  const dates = presentEventDates({
    start: doc.start,
    end: doc.end,
    timezone: doc.timezone,
    all_day: Boolean(doc.all_day),
  });
  // Links to records that no longer exist (a create racing a permanent delete) are not shown on
  // reads: filters do not match them either. The deletion re-indexes every event still linking.
  const existing = (ids: number[] | undefined, records: Map<number, unknown>) =>
    (ids ?? []).filter((id) => records.has(id));
  const ids = {
    venue_ids: existing(doc.venues, related.venues),
    organizer_ids: existing(doc.organizers, related.organizers),
    category_ids: existing(doc.categories, related.categories),
    tag_ids: existing(doc.tags, related.tags),
  };
  return {
    id: stored.id,
    series_id: stored.id,
    status: doc.status,
    author: doc.author ?? 0,
    post_parent: doc.post_parent ?? 0,
    title: doc.title,
    // A protected event's text is never matched by search (CONTRACT part 6).
    description: isProtected ? null : plainText(doc.description),
    excerpt: isProtected ? null : plainText(doc.excerpt),
    venue_names: isProtected ? [] : venues.map((v) => v.venue),
    organizer_names: isProtected ? [] : organizers.map((o) => o.organizer),
    category_names: categories.map((t) => t.name),
    tag_names: tags.map((t) => t.name),
    start_utc: doc.start.toISOString(),
    end_utc: doc.end.toISOString(),
    // Wall-clock times, no zone (the index reads them as UTC).
    start_local: wireToLocalIso(dates.start_date),
    end_local: wireToLocalIso(dates.end_date),
    date: (doc.date ?? doc.createdAt).toISOString(),
    modified: doc.modifiedAt.toISOString(),
    featured: Boolean(doc.featured),
    ticketed: Boolean(doc.ticketed),
    hide_from_listings: Boolean(doc.hide_from_listings),
    all_day: Boolean(doc.all_day),
    sticky: Boolean(doc.sticky),
    has_location: points.length > 0,
    password_protected: isProtected,
    ...ids,
    category_slugs: categories.map((t) => t.slug),
    tag_slugs: tags.map((t) => t.slug),
    location: points.length > 0 ? points : null,
    record: { ...apiRecord, occurrence: null },
    // Terms (counts), venues and organizers (has_events, upcoming) follow these.
    deps: hash({
      status: doc.status,
      end: (doc.series_end ?? doc.end).toISOString(),
      protected: isProtected,
      ...ids,
    }),
  };
}

/** An occurrence of a series as the index holds it (EXTENSIONS part 11). */
export interface IndexedOccurrence {
  start: Date;
  end: Date;
  recurrenceId: string;
  index: number;
}

/** The index ID of a series' occurrence: `{id}@{recurrence_id}` (a single event's is its ID). */
export const occurrenceDocumentId = (id: number, recurrenceId: string): string => `${id}@${recurrenceId}`;

/**
 * The index documents of a series' occurrences: each is the series' document (or, for an
 * occurrence changed on its own, its `variants` document) with the occurrence's dates, and its
 * record the series record with those dates and `occurrence`.
 */
export function occurrenceDocuments(
  series: IndexDocument,
  stored: StoredRecord<EventDoc>,
  lang: Language,
  occurrences: IndexedOccurrence[],
  variants: Map<string, IndexDocument> = new Map(),
): Map<string, IndexDocument> {
  const doc = inLanguage(stored, lang);
  const restUrl = String(series.record.rest_url ?? '');
  const documents = new Map<string, IndexDocument>();
  for (const occurrence of occurrences) {
    const base = variants.get(occurrence.recurrenceId) ?? series;
    const dates = presentEventDates({
      ...doc,
      all_day: Boolean(doc.all_day),
      start: occurrence.start,
      end: occurrence.end,
    });
    documents.set(occurrenceDocumentId(stored.id, occurrence.recurrenceId), {
      ...base,
      recurrence_id: occurrence.recurrenceId,
      start_utc: occurrence.start.toISOString(),
      end_utc: occurrence.end.toISOString(),
      start_local: wireToLocalIso(dates.start_date),
      end_local: wireToLocalIso(dates.end_date),
      record: {
        ...base.record,
        ...dates,
        occurrence: occurrenceLink(stored.id, occurrence, restUrl),
      },
    });
  }
  return documents;
}

/** What an occurrence document's record has of its own (occurrenceDocuments): its dates and `occurrence`. */
const OCCURRENCE_RECORD_FIELDS = new Set([
  'occurrence',
  'start_date',
  'start_date_details',
  'end_date',
  'end_date_details',
  'utc_start_date',
  'utc_start_date_details',
  'utc_end_date',
  'utc_end_date_details',
  'timezone_abbr',
]);

/** An occurrence document's record without what its occurrence adds: the series as it shows it. */
export const seriesRecordOf = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([field]) => !OCCURRENCE_RECORD_FIELDS.has(field)));

/** The `occurrence` object of an entry (EXTENSIONS part 11); `seriesUrl` is the series' `rest_url`. */
export function occurrenceLink(
  seriesId: number,
  occurrence: Pick<IndexedOccurrence, 'recurrenceId' | 'index'>,
  seriesUrl: string,
): Record<string, unknown> {
  return {
    recurrence_id: occurrence.recurrenceId,
    series_id: seriesId,
    index: occurrence.index,
    rest_url: `${seriesUrl.replace(/\/$/, '')}/occurrences/${occurrence.recurrenceId}`,
  };
}

function postDocument(
  kind: 'venue' | 'organizer',
  stored: StoredRecord<VenueDoc | OrganizerDoc>,
  lang: Language,
  apiRecord: Record<string, unknown>,
  related: RelatedData,
): IndexDocument {
  const doc = inLanguage(stored, lang);
  const venue = kind === 'venue' ? (doc as VenueDoc) : undefined;
  const organizer = kind === 'organizer' ? (doc as OrganizerDoc) : undefined;
  const point = pointOf(venue);
  const stats = related.eventStats.get(stored.id);
  const isoOf = (date: Date | null | undefined) => (date ? date.toISOString() : null);
  const details = venue
    ? [venue.address, venue.city, venue.stateprovince, venue.state, venue.province, venue.zip, venue.country]
    : [organizer?.email, organizer?.phone, organizer?.website];
  return {
    id: stored.id,
    status: doc.status,
    author: doc.author ?? 0,
    name: venue ? venue.venue : (organizer?.organizer ?? ''),
    description: plainText(doc.description),
    excerpt: plainText(doc.excerpt),
    details: details.filter((value): value is string => typeof value === 'string' && value !== ''),
    slug: doc.slug,
    date: (doc.date ?? doc.createdAt).toISOString(),
    modified: doc.modifiedAt.toISOString(),
    has_location: point !== null,
    location: point,
    // A password-protected event hides its venue and organizers from all but editors: counted apart.
    published_events: stats?.open.published ?? 0,
    events_end_max: isoOf(stats?.open.endMax),
    protected_events: stats?.protected.published ?? 0,
    protected_events_end_max: isoOf(stats?.protected.endMax),
    record: apiRecord,
    // Events embed the record and the location; the event statistics are not embedded.
    deps: hash({ record: apiRecord, point }),
  };
}

function termDocument(
  kind: TermKind,
  stored: StoredRecord<TermDoc>,
  lang: Language,
  apiRecord: Record<string, unknown>,
): IndexDocument {
  const doc = inLanguage(stored, lang);
  const count = typeof apiRecord.count === 'number' ? apiRecord.count : 0;
  const { count: _count, ...embedded } = apiRecord;
  return {
    id: stored.id,
    taxonomy: kind,
    name: doc.name,
    slug: doc.slug,
    description: plainText(doc.description),
    parent: kind === 'category' ? (doc.parent ?? 0) : 0,
    count,
    record: apiRecord,
    // A count change alone does not re-index every event using the term.
    deps: hash(embedded),
  };
}

/**
 * The index document of a stored record in `lang`: the fields lists filter, search and sort on,
 * plus the API record (`apiRecord`, from the kind's view) that lists return as is.
 */
export function toIndexDocument(
  kind: RecordKind,
  stored: StoredRecord<any>,
  lang: Language,
  apiRecord: Record<string, unknown>,
  related: RelatedData,
): IndexDocument {
  switch (kind) {
    case 'event':
      return eventDocument(stored, lang, apiRecord, related);
    case 'venue':
    case 'organizer':
      return postDocument(kind, stored, lang, apiRecord, related);
    case 'category':
    case 'tag':
      return termDocument(kind, stored, lang, apiRecord);
  }
}
