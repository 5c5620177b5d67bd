import type { Client } from '@elastic/elasticsearch';
import { LANGUAGES, type Language } from '../../config';
import { viewOf, type ViewOptions } from '../services/views/recordViews';
import type { Services } from '../services/container';
import { inLanguage, type StoredRecord } from '../storage/storedRecord';
import type { EventDoc } from '../storage/stores';
import { storeOf } from '../storage/stores';
import type { ClaimedEntry } from '../storage/syncQueue';
import { withBatchCache } from '../services/views/batchCache';
import type { BulkOperation } from './bulkIndexer';
import { occurrenceDocuments, toIndexDocument, type IndexDocument } from '../search/documents';
import { indexedOccurrences } from './seriesWindow';
import { occurrenceVariantDocuments } from './occurrenceVariants';
import { aliasName } from '../search/indexNames';
import type { StaleEvent } from '../search/staleOccurrences';
import { boolQuery } from '../search/fullText';
import { dropDeletedLinks, eventsLinking, loadRelated } from './relatedData';
import { EVENT_LINKS, type LinkedKind, type RecordKind } from '../domain/kinds';
import { isSeries } from '../domain/recurrence/overrides';

/** What a series' occurrence documents linked before this batch. */
type OccurrenceLinks = Record<'venue_ids' | 'organizer_ids', number[]>;

/** What propagation needs from an index document that was there before this batch. */
type PreviousDoc = Pick<IndexDocument, 'deps'> &
  Partial<Record<'venue_ids' | 'organizer_ids' | 'category_ids' | 'tag_ids', number[]>>;

/** A batch's entries of one kind and the index operations that carry each. */
export interface PreparedGroup {
  entries: ClaimedEntry[];
  operations: Map<string, BulkOperation[]>;
  /** Events whose documents of older versions are to be removed once indexed (series' occurrences). */
  stale?: StaleSeries[];
}

/** An event whose index documents below `version` are stale (see search/staleOccurrences.ts). */
export interface StaleSeries extends StaleEvent {
  key: string;
  /** When a worker last sent or gave back the event's documents (absent: never). */
  attemptedAt?: Date;
}

/**
 * Series one batch indexes at most: a daily series is about 3,300 documents (a year back to the
 * horizon, three languages), all held in memory between presenting and indexing.
 */
export const SERIES_PER_BATCH = 5;

/**
 * `entries` in parts to prepare one after the other, each with at most SERIES_PER_BATCH series
 * (`records`: the entries' records); every other entry is in the first part.
 */
export function seriesParts(entries: ClaimedEntry[], records: Map<number, StoredRecord<any>>): ClaimedEntry[][] {
  const series = entries.filter((entry) => {
    const record = entry.kind === 'event' ? records.get(entry.id) : undefined;
    return record !== undefined && isSeries(inLanguage(record, record.originalLang) as EventDoc);
  });
  if (series.length <= SERIES_PER_BATCH) return [entries];
  const later = new Set(series.slice(SERIES_PER_BATCH));
  const parts = [entries.filter((entry) => !later.has(entry))];
  for (let i = SERIES_PER_BATCH; i < series.length; i += SERIES_PER_BATCH)
    parts.push(series.slice(i, i + SERIES_PER_BATCH));
  return parts;
}

/** Embedded term counts as searches see the term index: lists serve its current ones instead. */
const INDEXED_VIEW: ViewOptions = { embeddedCounts: 'searchable-index' };
const PREVIOUS_FIELDS = ['deps', 'venue_ids', 'organizer_ids', 'category_ids', 'tag_ids'];
/** Venues (organizers) one series' occurrences may link, read back per batch. */
const MAX_OCCURRENCE_LINKS = 1_000;

export interface PrepareOptions {
  /**
   * Whether to mark dependents dirty when what they embed changed (default true). A full
   * rebuild (src/tools/reindex/reindex.ts) rebuilds from the database and changes nothing dependents show.
   */
  propagate?: boolean;
  /** The entries' records, read after their versions (default: read here). */
  records?: Map<number, StoredRecord<any>>;
  /** Aborts the read of the documents indexed before (a worker stopping). */
  signal?: AbortSignal;
}

/**
 * The index operations of claimed entries of one kind: reads the records (after claiming, so
 * never older than the claimed version), presents them in every language with the kind's view,
 * maps them, and marks dependent records dirty. Records gone from the database are deleted.
 */
export async function prepareGroup(
  rootServices: Services,
  client: Client,
  kind: RecordKind,
  entries: ClaimedEntry[],
  options: PrepareOptions = {},
): Promise<PreparedGroup> {
  const ids = entries.map((e) => e.id);
  const services = withBatchCache(rootServices);
  const shouldPropagate = options.propagate ?? true;
  const [records, previous] = await Promise.all([
    options.records ?? storeOf(services.stores, kind).getMany(ids),
    shouldPropagate ? previousDocs(services, client, kind, ids, options.signal) : null,
  ]);
  const present = ids.flatMap((id) => (records.has(id) ? [records.get(id) as StoredRecord<any>] : []));
  // Only series, and events that were one, have occurrence documents whose links to read back.
  const withOccurrences =
    kind === 'event' && previous
      ? ids.filter((id) => {
          const record = records.get(id);
          return (
            (record && isSeries(inLanguage(record, record.originalLang))) || mayHaveOccurrences(record, previous, id)
          );
        })
      : [];
  const occurrenceLinked =
    withOccurrences.length > 0 ? await occurrenceLinks(services, client, withOccurrences, options.signal) : null;
  const related = await loadRelated(services, kind, present);
  if (kind === 'event' && shouldPropagate) await dropDeletedLinks(services, present, related);
  const current = new Map<Language, Map<number, IndexDocument>>();
  await Promise.all(
    LANGUAGES.map(async (lang) => {
      const apiRecords = present.length > 0 ? await viewOf(kind)(services, present, lang, INDEXED_VIEW) : [];
      const byId = new Map(apiRecords.map((record) => [record.id as number, record]));
      const docs = new Map<number, IndexDocument>();
      for (const record of present) {
        const apiRecord = byId.get(record.id);
        if (apiRecord) docs.set(record.id, toIndexDocument(kind, record, lang, apiRecord, related));
      }
      current.set(lang, docs);
    }),
  );
  // Dependents are marked before indexing: a crash after indexing would hide the change on retry.
  if (previous) await propagate(services, kind, ids, previous, current, { records: present, occurrenceLinked });
  const series = kind === 'event' ? indexedOccurrences(services.config, present) : new Map();
  const variants =
    kind === 'event' && series.size > 0
      ? await occurrenceVariantDocuments(services, present, related, INDEXED_VIEW)
      : null;
  const operations = new Map<string, BulkOperation[]>();
  const stale: StaleSeries[] = [];
  for (const entry of entries) {
    const exists = records.has(entry.id);
    const occurrences = series.get(entry.id);
    const ops: BulkOperation[] = [];
    let languages = 0;
    for (const lang of LANGUAGES) {
      const index = aliasName(services.config, kind, lang);
      const document = current.get(lang)?.get(entry.id);
      const { version } = entry;
      if (document && occurrences) {
        languages++;
        const changed = variants?.get(lang)?.get(entry.id);
        for (const [id, occurrence] of occurrenceDocuments(
          document,
          records.get(entry.id)!,
          lang,
          occurrences,
          changed,
        ))
          ops.push({ action: 'index', index, id, version, document: { ...occurrence, indexed_version: version } });
      } else if (document) {
        languages++;
        const indexed = kind === 'event' ? { ...document, indexed_version: version } : document;
        ops.push({ action: 'index', index, id: String(entry.id), version, document: indexed });
      } else if (!exists) {
        languages++;
        ops.push({ action: 'delete', index, id: String(entry.id), version });
      }
    }
    // A record the view could not present stays pending (released) rather than half-indexed.
    if (languages === LANGUAGES.length) operations.set(entry.key, ops);
    if (kind === 'event' && (occurrences || mayHaveOccurrences(records.get(entry.id), previous, entry.id)))
      stale.push({ key: entry.key, id: entry.id, version: entry.version, attemptedAt: entry.attemptedAt });
  }
  return { entries, operations, stale };
}

/**
 * Whether an event that is not a series now may still have occurrence documents: it was one once,
 * or it is gone and was not indexed as a single event.
 */
function mayHaveOccurrences(
  record: StoredRecord<EventDoc> | undefined,
  previous: Map<Language, Map<number, PreviousDoc>> | null,
  id: number,
): boolean {
  if (record) return Boolean(inLanguage(record, record.originalLang).was_series);
  return previous === null || LANGUAGES.some((lang) => !previous.get(lang)?.has(id));
}

/** The index documents as they were before this batch, in every language: one request. */
async function previousDocs(
  services: Services,
  client: Client,
  kind: RecordKind,
  ids: number[],
  signal: AbortSignal | undefined,
): Promise<Map<Language, Map<number, PreviousDoc>>> {
  const previous = new Map<Language, Map<number, PreviousDoc>>(LANGUAGES.map((lang) => [lang, new Map()]));
  const langOfIndex = new Map<string, Language>();
  const docs = LANGUAGES.flatMap((lang) => {
    const index = aliasName(services.config, kind, lang);
    langOfIndex.set(index, lang);
    return ids.map((id) => ({ _index: index, _id: String(id) }));
  });
  const response = await client.mget<PreviousDoc>({ docs, _source_includes: PREVIOUS_FIELDS }, { signal });
  response.docs.forEach((doc, i) => {
    const lang = langOfIndex.get(docs[i]!._index) as Language;
    if ('found' in doc && doc.found && doc._source) previous.get(lang)?.set(Number(doc._id), doc._source);
  });
  return previous;
}

/**
 * The venues and organizers the occurrence documents of each series among `ids` link (moved
 * occurrences included), in any language, before this batch.
 */
async function occurrenceLinks(
  services: Services,
  client: Client,
  ids: number[],
  signal: AbortSignal | undefined,
): Promise<Map<number, OccurrenceLinks>> {
  const terms = (field: string) => ({ terms: { field, size: MAX_OCCURRENCE_LINKS } });
  const response = await client.search(
    {
      index: LANGUAGES.map((lang) => aliasName(services.config, 'event', lang)),
      size: 0,
      query: boolQuery({ filter: [{ terms: { series_id: ids } }, { exists: { field: 'recurrence_id' } }] }),
      aggs: {
        series: {
          terms: { field: 'series_id', size: ids.length },
          aggs: { venue_ids: terms('venue_ids'), organizer_ids: terms('organizer_ids') },
        },
      },
    },
    { signal },
  );
  type Buckets = {
    buckets: {
      key: number;
      venue_ids: { buckets: { key: number }[] };
      organizer_ids: { buckets: { key: number }[] };
    }[];
  };
  const links = new Map<number, OccurrenceLinks>();
  for (const bucket of (response.aggregations?.series as Buckets | undefined)?.buckets ?? []) {
    links.set(Number(bucket.key), {
      venue_ids: bucket.venue_ids.buckets.map((b) => Number(b.key)),
      organizer_ids: bucket.organizer_ids.buckets.map((b) => Number(b.key)),
    });
  }
  return links;
}

/**
 * Marks dirty the records whose index documents depend on the changed ones. A series links, besides
 * its own, the venues and organizers its moved occurrences have now (`records`: those present) and
 * had (`occurrenceLinked`).
 */
async function propagate(
  services: Services,
  kind: RecordKind,
  ids: number[],
  previous: Map<Language, Map<number, PreviousDoc>>,
  current: Map<Language, Map<number, IndexDocument>>,
  series: { records: StoredRecord<any>[]; occurrenceLinked: Map<number, OccurrenceLinks> | null },
): Promise<void> {
  const changed = ids.filter((id) =>
    LANGUAGES.some((lang) => previous.get(lang)?.get(id)?.deps !== current.get(lang)?.get(id)?.deps),
  );
  if (changed.length === 0) return;
  const { sync } = services;
  if (kind !== 'event') {
    await sync.markDirty('event', await eventsLinking(services, kind as LinkedKind, changed));
    return;
  }
  const linkedOf = (field: keyof PreviousDoc): number[] => {
    const linked = new Set<number>();
    for (const id of changed) {
      for (const lang of LANGUAGES) {
        for (const doc of [previous.get(lang)?.get(id), current.get(lang)?.get(id)]) {
          for (const linkedId of (doc?.[field] as number[] | undefined) ?? []) linked.add(linkedId);
        }
      }
    }
    const overridden = field === 'venue_ids' ? 'venues' : field === 'organizer_ids' ? 'organizers' : null;
    if (!overridden) return [...linked];
    for (const record of series.records) {
      for (const override of (inLanguage(record, record.originalLang) as EventDoc).occurrence_overrides ?? [])
        for (const linkedId of override[overridden] ?? []) linked.add(linkedId);
    }
    for (const id of changed)
      for (const linkedId of series.occurrenceLinked?.get(id)?.[field as keyof OccurrenceLinks] ?? [])
        linked.add(linkedId);
    return [...linked];
  };
  await sync.markAllDirty(EVENT_LINKS.map(([linkedKind]) => [linkedKind, linkedOf(`${linkedKind}_ids`)] as const));
}
