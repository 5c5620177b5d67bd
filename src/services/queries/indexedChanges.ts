import type { Language } from '../../../config';
import type { RecordKind } from '../../domain/kinds';
import type { ChangeEntry } from '../../storage/changeLog';
import { syncKey, type SyncEntry } from '../../storage/syncQueue';
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
const EMBEDDED = [
  ['venue_ids', 'venue'],
  ['organizer_ids', 'organizer'],
  ['category_ids', 'category'],
  ['tag_ids', 'tag'],
] as const;

type States = Map<RecordKind, Map<number, Pick<SyncEntry, 'version' | 'pending'>>>;

/** The sync states of the records of `ids`, one query per kind. */
async function statesOf(services: Services, ids: Map<RecordKind, Set<number>>): Promise<States> {
  const states: States = new Map();
  await Promise.all(
    [...ids].map(async ([kind, set]) => states.set(kind, await services.sync.statesOf(kind, [...set]))),
  );
  return states;
}

function idsByKind(pairs: Iterable<readonly [RecordKind, number]>): Map<RecordKind, Set<number>> {
  const ids = new Map<RecordKind, Set<number>>();
  for (const [kind, id] of pairs) {
    const set = ids.get(kind) ?? new Set();
    ids.set(kind, set.add(id));
  }
  return ids;
}

/**
 * The index copies (in `lang`, by sync key) of the entries' records that hold their latest state,
 * as lists serve them: each indexed at its record's current sync version (the external version
 * of src/indexer: every write bumps it before changing the record, and the worker reads a record
 * only after claiming its version), and, for an event, with no record it embeds waiting for the
 * worker (which marks an event dirty, bumping its version, before it completes a change of what
 * the event embeds). Whatever else is left out (not indexed yet, indexed at an older version, a
 * series: indexed per occurrence only) is for the caller to read from MongoDB.
 */
export async function currentIndexedCopies(
  services: Services,
  entries: ChangeEntry[],
  lang: Language,
): Promise<Map<string, IndexedCopy>> {
  if (entries.length === 0) return new Map();
  const docs = entries.map((entry) => ({
    _index: aliasName(services.config, entry.kind, lang),
    _id: String(entry.id),
  }));
  const [response, states] = await Promise.all([
    // Whole sources: Elasticsearch sends them as stored, where picking fields parses each (twice the time).
    getIndexed<IndexedCopy>(services, { docs }),
    statesOf(services, idsByKind(entries.map((entry) => [entry.kind, entry.id] as const))),
  ]);
  const copies = new Map<string, IndexedCopy>();
  response.docs.forEach((doc, i) => {
    const { kind, id } = entries[i]!;
    if (!('found' in doc) || !doc.found || !doc._source) return;
    if (doc._version === undefined || states.get(kind)?.get(id)?.version !== doc._version) return;
    copies.set(syncKey(kind, id), doc._source);
  });
  const embedded = [...copies.values()].flatMap((copy) =>
    EMBEDDED.flatMap(([field, kind]) => (copy[field] ?? []).map((id) => [kind, id] as const)),
  );
  if (embedded.length === 0) return copies;
  const embeddedStates = await statesOf(services, idsByKind(embedded));
  const settled = (kind: RecordKind, id: number) => embeddedStates.get(kind)?.get(id)?.pending === false;
  for (const [key, copy] of copies) {
    if (!EMBEDDED.every(([field, kind]) => (copy[field] ?? []).every((id) => settled(kind, id)))) copies.delete(key);
  }
  return copies;
}
