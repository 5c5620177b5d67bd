import type { Language } from '../../../config';
import type { ChangeEntry } from '../../storage/changeLog';
import { syncKey } from '../../storage/syncQueue';
import { aliasName } from '../../search/indexNames';
import type { Services } from '../container';
import { getIndexed } from './listing';

/** What `/changes` reads of an index document: the record lists serve, and who lists it. */
export interface IndexedCopy {
  record: Record<string, unknown>;
  status?: string;
  author?: number;
  hide_from_listings?: boolean;
  password_protected?: boolean;
  venue_ids?: number[];
  organizer_ids?: number[];
  category_ids?: number[];
  tag_ids?: number[];
}

/** The records an event's index document embeds, by the field listing their IDs. */
export const EMBEDDED = [
  ['venue_ids', 'venue'],
  ['organizer_ids', 'organizer'],
  ['category_ids', 'category'],
  ['tag_ids', 'tag'],
] as const;

/** What tells, beside an entry's version, whether an index copy holds its record's latest state. */
export interface LatestStates {
  /** The records of the kinds events embed that wait for the worker, by sync key. */
  pending: Set<string>;
}

/**
 * The `LatestStates` of the entries' records, read once for a whole page after the entries (one
 * query, not one per part: on an engine without the index, it scans the collection). Only events
 * embed records.
 */
export async function latestStatesOf(services: Services, entries: readonly ChangeEntry[]): Promise<LatestStates> {
  const pending = entries.some((entry) => entry.kind === 'event')
    ? await services.sync.pendingKeys(EMBEDDED.map(([, kind]) => kind))
    : new Set<string>();
  return { pending };
}

/**
 * Added to an index refresh interval: a document indexed that long ago is searchable (the
 * refresh's own time, and the clocks of the worker and this process).
 */
const SEARCHABLE_MARGIN_MS = 500;

/**
 * The events of `ids` whose latest state may not be searchable yet: waiting for the worker, or
 * indexed within an index refresh interval.
 */
export async function unsearchableEvents(services: Services, ids: number[]): Promise<Set<number>> {
  const searchableBefore = Date.now() - services.config.elasticsearch.refreshIntervalMs - SEARCHABLE_MARGIN_MS;
  const unsearchable = new Set<number>();
  for (const [id, state] of await services.sync.indexStates('event', ids)) {
    if (state.pending || (state.attemptedAt?.getTime() ?? 0) > searchableBefore) unsearchable.add(id);
  }
  return unsearchable;
}

/**
 * The index copies (in `lang`, by sync key) of the entries' records that hold their latest state,
 * as lists serve them: each indexed at the version its entry was logged with (the external
 * version of src/indexer: every write bumps it, then logs the record with it, and the worker
 * reads a record only after claiming its version), and, for an event, with no record it embeds
 * pending. A copy at its entry's version is the record's state then; a write since bumped the
 * version, and the log lists the record again after it. So does a change of what an event embeds
 * that was not pending when read: the worker marks the event dirty, which bumps its version and
 * logs it again, before it completes that change. Whatever else is left out (logged without a
 * version, not indexed yet, indexed at another version, a series: indexed per occurrence only) is
 * for the caller to read from MongoDB.
 */
export async function currentIndexedCopies(
  services: Services,
  entries: ChangeEntry[],
  lang: Language,
  { pending }: LatestStates,
): Promise<Map<string, IndexedCopy>> {
  if (entries.length === 0) return new Map();
  const docs = entries.map((entry) => ({
    _index: aliasName(services.config, entry.kind, lang),
    _id: String(entry.id),
  }));
  // Whole sources: Elasticsearch sends them as stored, where picking fields parses each (twice the time).
  const response = await getIndexed<IndexedCopy>(services, { docs });
  const settled = (copy: IndexedCopy) =>
    EMBEDDED.every(([field, kind]) => (copy[field] ?? []).every((id) => !pending.has(syncKey(kind, id))));
  const copies = new Map<string, IndexedCopy>();
  response.docs.forEach((doc, i) => {
    const key = syncKey(entries[i]!.kind, entries[i]!.id);
    if (!('found' in doc) || !doc.found || !doc._source || doc._version === undefined) return;
    if (entries[i]!.version === doc._version && settled(doc._source)) copies.set(key, doc._source);
  });
  return copies;
}
