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

type State = Pick<SyncEntry, 'version' | 'pending'>;

/**
 * Sync states read for one page of changes, each record's once (its parts share those of the
 * records their events embed). A state read earlier in the page is as good as one read now: it
 * was read after the request began, and an embedded record's is only ever read before the
 * version of an event it is checked with (see currentIndexedCopies).
 */
export class PageStates {
  private readonly known = new Map<RecordKind, Map<number, State | null>>();

  constructor(private readonly services: Services) {}

  /** Reads the states of the records not read yet, one query per kind. */
  async load(records: Iterable<readonly [RecordKind, number]>): Promise<void> {
    const missing = new Map<RecordKind, Set<number>>();
    for (const [kind, id] of records) {
      if (this.known.get(kind)?.has(id)) continue;
      const set = missing.get(kind) ?? new Set();
      missing.set(kind, set.add(id));
    }
    await Promise.all(
      [...missing].map(async ([kind, ids]) => {
        const found = await this.services.sync.statesOf(kind, [...ids]);
        const known = this.known.get(kind) ?? new Map<number, State | null>();
        for (const id of ids) known.set(id, found.get(id) ?? null);
        this.known.set(kind, known);
      }),
    );
  }

  get(kind: RecordKind, id: number): State | null | undefined {
    return this.known.get(kind)?.get(id);
  }
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
  states: PageStates,
): Promise<Map<string, IndexedCopy>> {
  if (entries.length === 0) return new Map();
  const docs = entries.map((entry) => ({
    _index: aliasName(services.config, entry.kind, lang),
    _id: String(entry.id),
  }));
  // Whole sources: Elasticsearch sends them as stored, where picking fields parses each (twice the time).
  const response = await getIndexed<IndexedCopy>(services, { docs });
  const found = response.docs.flatMap((doc, i) =>
    'found' in doc && doc.found && doc._source && doc._version !== undefined
      ? [{ entry: entries[i]!, copy: doc._source, version: doc._version }]
      : [],
  );
  // What the copies embed is read first: a change of it seen completed was propagated before the
  // worker completed it, so the embedding event's version read next is past that propagation.
  await states.load(
    found.flatMap(({ copy }) =>
      EMBEDDED.flatMap(([field, kind]) => (copy[field] ?? []).map((id) => [kind, id] as const)),
    ),
  );
  await states.load(found.map(({ entry }) => [entry.kind, entry.id] as const));
  const settled = (kind: RecordKind, id: number) => states.get(kind, id)?.pending === false;
  const copies = new Map<string, IndexedCopy>();
  for (const { entry, copy, version } of found) {
    if (states.get(entry.kind, entry.id)?.version !== version) continue;
    if (EMBEDDED.every(([field, kind]) => (copy[field] ?? []).every((id) => settled(kind, id))))
      copies.set(syncKey(entry.kind, entry.id), copy);
  }
  return copies;
}
