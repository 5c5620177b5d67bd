import type { Language } from '../../../config';
import type { RecordKind } from '../../domain/kinds';
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

/** The IDs of the entries' records, per kind. */
export function idsByKind(entries: readonly Pick<ChangeEntry, 'kind' | 'id'>[]): Map<RecordKind, number[]> {
  const byKind = new Map<RecordKind, number[]>();
  for (const { kind, id } of entries) {
    const ids = byKind.get(kind) ?? [];
    byKind.set(kind, ids);
    ids.push(id);
  }
  return byKind;
}

/** What tells whether an index copy holds its record's latest state (see currentIndexedCopies). */
export interface LatestStates {
  /** The records of the kinds events embed that wait for the worker, by sync key. */
  pending: Set<string>;
  /** The entries' records' sync versions, by sync key. */
  versions: Map<string, number>;
  /**
   * The entries' events whose latest state may not be searchable yet, by sync key: waiting for the
   * worker, or indexed within an index refresh interval.
   */
  unsearchable: Set<string>;
}

/**
 * Added to an index refresh interval: a document indexed that long ago is searchable (the
 * refresh's own time, and the clocks of the worker and this process).
 */
const SEARCHABLE_MARGIN_MS = 500;

/** The sync versions of the entries' records now, and which of their events may not be searchable yet. */
async function syncStatesOf(
  services: Services,
  entries: readonly ChangeEntry[],
): Promise<Pick<LatestStates, 'versions' | 'unsearchable'>> {
  const versions = new Map<string, number>();
  const unsearchable = new Set<string>();
  const searchableBefore = Date.now() - services.config.elasticsearch.refreshIntervalMs - SEARCHABLE_MARGIN_MS;
  await Promise.all(
    [...idsByKind(entries)].map(async ([kind, ids]) => {
      for (const [id, state] of await services.sync.indexStates(kind, ids)) {
        const key = syncKey(kind, id);
        versions.set(key, state.version);
        const indexedAt = state.attemptedAt?.getTime() ?? 0;
        if (kind === 'event' && (state.pending || indexedAt > searchableBefore)) unsearchable.add(key);
      }
    }),
  );
  return { versions, unsearchable };
}

/**
 * The `LatestStates` of the entries' records, read once for a whole page (one query per kind, not
 * one per part: on an engine without the index, each scans the collection). The pending records
 * are read before the versions; only events embed records.
 */
export async function latestStatesOf(services: Services, entries: readonly ChangeEntry[]): Promise<LatestStates> {
  const pending = entries.some((entry) => entry.kind === 'event')
    ? await services.sync.pendingKeys(EMBEDDED.map(([, kind]) => kind))
    : new Set<string>();
  return { pending, ...(await syncStatesOf(services, entries)) };
}

/**
 * The index copies (in `lang`, by sync key) of the entries' records that hold their latest state,
 * as lists serve them: each indexed at its record's current sync version (the external version
 * of src/indexer: every write bumps it before changing the record, and the worker reads a record
 * only after claiming its version), and, for an event, with no record it embeds pending (read
 * before its version: the worker marks an event dirty, bumping its version, before it completes a
 * change of what the event embeds, so a change not pending then was propagated before the event's
 * version was read). A copy at the version read is the record's state then; a write since bumped
 * the version, and the log lists the record again after it. Whatever else is left out (not
 * indexed yet, indexed at an older version, a series: indexed per occurrence only) is for the
 * caller to read from MongoDB.
 */
export async function currentIndexedCopies(
  services: Services,
  entries: ChangeEntry[],
  lang: Language,
  { pending, versions }: LatestStates,
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
    if (versions.get(key) === doc._version && settled(doc._source)) copies.set(key, doc._source);
  });
  return copies;
}
