import type { Language } from '../../../config';
import { listScope, mayHaveListed, seesHiddenEvents, type Ownership } from '../../domain/policy';
import { listedEventFor, ownershipOf, recordOwnership } from '../../storage/recordAccess';
import { wireUtc } from '../../domain/dates';
import { idsByKind, PLURAL, type RecordKind } from '../../domain/kinds';
import type { Principal } from '../../domain/principal';
import { withCurrentTermCounts } from './termCounts';
import type { Services } from '../container';
import type { ChangeEntry } from '../../storage/changeLog';
import { inLanguage, type BaseDoc, type StoredRecord } from '../../storage/storedRecord';
import { storeOf } from '../../storage/stores';
import { syncKey } from '../../storage/syncQueue';
import {
  currentIndexedCopies,
  latestStatesOf,
  unsearchableEvents,
  type IndexedCopy,
  type LatestStates,
} from './indexedChanges';
import { viewOf } from '../views/recordViews';
import { isSeries, type SeriesFields } from '../../domain/recurrence/overrides';
import { keepChangeRecord, keptChangeRecords, recordJsonOf } from './keptChangeRecords';

/** One item of `/changes` (EXTENSIONS 17). */
export interface Change {
  /** The kind's plural, as the routes and `/suggest` name kinds (`events`). */
  kind: (typeof PLURAL)[RecordKind];
  id: number;
  action: 'upsert' | 'delete';
  modified_utc: string;
  record: Record<string, unknown> | null;
}

type ApiRecord = Record<string, unknown>;

/**
 * Whether the caller's list of the kind, without filters, would show a record of this owner
 * (CONTRACT part 6): the statuses that list shows by default (never trash), events hidden from
 * listings only to editors. Terms have no status. A protected event is listed (blanked), so it is shown.
 */
function listedFor(kind: RecordKind, owner: Ownership, hidden: boolean, principal: Principal): boolean {
  if (kind === 'category' || kind === 'tag') return true;
  const scope = listScope(principal, undefined);
  const shown =
    scope.everyone.includes(owner.status) || (scope.own.includes(owner.status) && owner.author === principal.userId);
  return shown && (kind !== 'event' || !hidden || seesHiddenEvents(principal));
}

/** A listed event as the caller's list shows it (a series once, its record as a single event's). */
const listedEvent = (record: ApiRecord, passwordProtected: boolean, principal: Principal): ApiRecord =>
  listedEventFor({ ...record, occurrence: null }, passwordProtected, principal);

/**
 * A series as the feed gives it: its record with `occurrence: null` and its `recurrence` lines, as
 * a read shows them (never an entry of a list, which lists its occurrences): what tells a follower
 * to read its occurrences.
 */
const seriesRecord = (listed: ApiRecord, doc: SeriesFields): ApiRecord =>
  isSeries(doc) ? { ...listed, recurrence: doc.recurrence } : listed;

/**
 * The records of one kind read from MongoDB, presented as the index documents lists serve are
 * (src/indexer/batchDocuments.ts), then as lists show them (protected events blanked, unreadable
 * links left out; term counts are the caller's), by ID.
 */
async function storedRecords(
  services: Services,
  kind: RecordKind,
  ids: number[],
  lang: Language,
  principal: Principal,
): Promise<Map<number, ApiRecord>> {
  const stored = await storeOf(services.stores, kind).getMany(ids);
  const docOf = (record: StoredRecord<BaseDoc>) =>
    inLanguage(record, record.originalLang) as BaseDoc &
      SeriesFields & { hide_from_listings?: boolean; passwordHash?: string };
  const shown = [...stored.values()].filter((record) =>
    listedFor(kind, recordOwnership(record), Boolean(docOf(record).hide_from_listings), principal),
  );
  if (shown.length === 0) return new Map();
  const view = viewOf(kind);
  const records = await view(
    services,
    shown,
    lang,
    kind === 'event' ? { embeddedCounts: 'searchable-index' } : { counts: 'index' },
  );
  return new Map(
    records.map((record) => {
      const id = Number(record.id);
      const event = kind === 'event' && docOf(stored.get(id)!);
      return [id, event ? seriesRecord(listedEvent(record, Boolean(event.passwordHash), principal), event) : record];
    }),
  );
}

/** A current index copy as the caller's list shows it, or null when that list leaves it out. */
function indexedRecord(kind: RecordKind, copy: IndexedCopy, principal: Principal): ApiRecord | null {
  if (!listedFor(kind, ownershipOf(copy), Boolean(copy.hide_from_listings), principal)) return null;
  return kind === 'event' ? listedEvent(copy.record, copy.password_protected === true, principal) : copy.record;
}

/**
 * Changes presented at once: each part's records are dropped once written as JSON, so that a page
 * of 1,000 holds its text and one part's objects rather than all of them (the API's memory).
 */
const CHANGES_PER_PART = 100;

/** A change's record as presented: from its index copy when that holds the latest state. */
interface Presented {
  record: ApiRecord | null;
  copy?: IndexedCopy;
}

/**
 * The records of `entries` as `principal` may see them, in `lang`, by sync key: each at its latest
 * state, or null when it is gone, trashed or not in the caller's list any more. A record is
 * served as lists serve it, from its index copy, when that copy holds its latest state
 * (indexedChanges.ts), else read from MongoDB (CONTRACT part 8 either way).
 */
async function presentedRecords(
  services: Services,
  entries: ChangeEntry[],
  lang: Language,
  principal: Principal,
  states: LatestStates,
): Promise<Map<string, Presented>> {
  const copies = await currentIndexedCopies(services, entries, lang, states);
  const keys = entries.map(({ kind, id }) => syncKey(kind, id));
  const presented = new Map<string, Presented>();
  const unindexedEntries: ChangeEntry[] = [];
  entries.forEach((entry, i) => {
    const copy = copies.get(keys[i]!);
    if (copy) presented.set(keys[i]!, { record: indexedRecord(entry.kind, copy, principal), copy });
    else unindexedEntries.push(entry);
  });
  const unindexed = idsByKind(unindexedEntries);
  await Promise.all(
    [...unindexed].map(async ([kind, ids]) => {
      const records = await storedRecords(services, kind, ids, lang, principal);
      for (const id of ids) presented.set(syncKey(kind, id), { record: records.get(id) ?? null });
    }),
  );
  // Embedded term counts as lists show them: the term index's current ones.
  const events = entries.flatMap(({ kind }, i) => {
    const record = kind === 'event' ? presented.get(keys[i]!)?.record : null;
    return record ? [record] : [];
  });
  const counted = await withCurrentTermCounts(services, events, lang);
  for (const record of counted) presented.get(syncKey('event', Number(record.id)))!.record = record;
  return presented;
}

/** One change as JSON, written as it goes into a page. */
export interface ChangeJson {
  /** Its fields before the record, up to `"record":`. */
  head: Buffer;
  /** The record, or null for a `delete`. */
  record: Buffer | null;
  /** The SHA-1 of `record`: what the page's digest takes of it. */
  recordDigest: Buffer | null;
  /** An upsert of a series whose occurrences may not be searchable yet (see visibleChangesJson). */
  waitsForIndex: boolean;
}

/**
 * How long past its change a series waits for its occurrences to be searchable before the feed
 * gives it anyway (a worker down, a record the index refuses), so that one such series holds the
 * feed back this long at most.
 */
export const SERIES_INDEX_WAIT_MS = 60_000;

/** Whether a record as presented is a series (seriesRecord). */
const isSeriesRecord = (record: ApiRecord | null) => Array.isArray(record?.recurrence);

/**
 * The changes of `entries` as `principal` may see them, in `lang`, in the log's order: each
 * record at its latest state, or `delete` when it is gone, trashed or not in the caller's list any
 * more, or null (no change) for a record the caller's lists never showed in a state its entry
 * knows of (a draft of someone else's: the feed never names it). Records presented from their
 * index copies are kept (keptChangeRecords.ts): the next page listing them at the same version,
 * for the same caller, writes them as they are.
 */
async function visibleChanges(
  services: Services,
  entries: ChangeEntry[],
  lang: Language,
  principal: Principal,
  states: LatestStates,
): Promise<(ChangeJson | null)[]> {
  const records = await keptChangeRecords(services, entries, states, lang, principal);
  const missing = entries.filter((_, i) => records[i] === undefined);
  const presented = await presentedRecords(services, missing, lang, principal, states);
  // A series has no index copy of its own: it is always presented here, and may have to wait.
  const waitedSince = Date.now() - SERIES_INDEX_WAIT_MS;
  const recentSeries = missing.filter(
    (entry) => isSeriesRecord(presented.get(syncKey(entry.kind, entry.id))!.record) && entry.at.getTime() > waitedSince,
  );
  const unsearchable = await unsearchableEvents(
    services,
    recentSeries.map(({ id }) => id),
  );
  return entries.map((entry, i) => {
    let json = records[i];
    let waitsForIndex = false;
    if (json === undefined) {
      const found = presented.get(syncKey(entry.kind, entry.id))!;
      json = found.copy
        ? keepChangeRecord(services, entry, { copy: found.copy, record: found.record }, lang, principal)
        : found.record && recordJsonOf(found.record);
      waitsForIndex = entry.kind === 'event' && unsearchable.has(entry.id);
    }
    if (!json && !mayHaveListed(principal, entry.kind, entry.audience)) return null;
    const change: Omit<Change, 'record'> = {
      kind: PLURAL[entry.kind],
      id: entry.id,
      action: json ? 'upsert' : 'delete',
      modified_utc: wireUtc(entry.at),
    };
    return {
      head: Buffer.from(`${JSON.stringify(change).slice(0, -1)},"record":`),
      record: json?.record ?? null,
      recordDigest: json?.digest ?? null,
      waitsForIndex,
    };
  });
}

/**
 * `visibleChanges` of `entries`, presented CHANGES_PER_PART at a time: a page of 1,000 is held as
 * about 5 MB of buffers beside the part being presented, not as objects on the heap. One item per
 * entry given, in order (null where the caller is told nothing), up to where the changes end.
 *
 * The changes end before the first upsert of a series whose occurrences may not be searchable yet
 * (up to SERIES_INDEX_WAIT_MS after its change): a copy made of exports lists a series'
 * occurrences, which its follower reads from `GET /events/{id}/occurrences` once the feed gives
 * the series, and must find there as they are now.
 */
export async function visibleChangesJson(
  services: Services,
  entries: ChangeEntry[],
  lang: Language,
  principal: Principal,
): Promise<(ChangeJson | null)[]> {
  const states = await latestStatesOf(services, entries);
  const changes: (ChangeJson | null)[] = [];
  for (let at = 0; at < entries.length; at += CHANGES_PER_PART) {
    const part = await visibleChanges(services, entries.slice(at, at + CHANGES_PER_PART), lang, principal, states);
    const waiting = part.findIndex((change) => change?.waitsForIndex);
    changes.push(...(waiting === -1 ? part : part.slice(0, waiting)));
    if (waiting !== -1) break;
  }
  return changes;
}
