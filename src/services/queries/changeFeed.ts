import { DateTime } from 'luxon';
import type { Language } from '../../../config';
import { listScope, seesHiddenEvents } from '../../domain/policy';
import { listedEventFor, recordOwnership } from '../../storage/recordAccess';
import { toWire } from '../../domain/dates';
import { PLURAL, type RecordKind } from '../../domain/kinds';
import type { Principal } from '../../domain/principal';
import { withCurrentTermCounts } from './termCounts';
import type { Services } from '../container';
import type { ChangeEntry } from '../../storage/changeLog';
import { inLanguage, type BaseDoc, type StoredRecord } from '../../storage/storedRecord';
import { storeOf } from '../../storage/stores';
import { viewOf } from '../views/recordViews';

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
 * Whether the caller's list of the kind, without filters, would show the record (CONTRACT part
 * 6): the statuses that list shows by default (never trash), events hidden from listings only
 * to editors. Terms have no status. A protected event is listed (blanked), so it is shown.
 */
function listedFor(kind: RecordKind, record: StoredRecord<BaseDoc>, principal: Principal): boolean {
  if (kind === 'category' || kind === 'tag') return true;
  const { status, author } = recordOwnership(record);
  const scope = listScope(principal, undefined);
  const shown = scope.everyone.includes(status) || (scope.own.includes(status) && author === principal.userId);
  if (!shown) return false;
  const doc = inLanguage(record, record.originalLang) as BaseDoc & { hide_from_listings?: boolean };
  return kind !== 'event' || !doc.hide_from_listings || seesHiddenEvents(principal);
}

/** The records of one kind as the caller's list shows them, in `lang`, by ID. */
async function presentKind(
  services: Services,
  kind: RecordKind,
  ids: number[],
  lang: Language,
  principal: Principal,
): Promise<Map<number, ApiRecord>> {
  const stored = await storeOf(services.stores, kind).getMany(ids);
  const shown = [...stored.values()].filter((record) => listedFor(kind, record, principal));
  if (shown.length === 0) return new Map();
  // As the index documents lists serve are made (src/search/batchDocuments.ts), then as lists
  // show them: term counts from the term index, protected events blanked, unreadable links left out.
  const view = viewOf(kind);
  let records = await view(
    services,
    shown,
    lang,
    kind === 'event' ? { embeddedCounts: 'searchable-index' } : { counts: 'index' },
  );
  if (kind === 'event') {
    records = records.map((record) => {
      const event = stored.get(Number(record.id))!;
      const doc = inLanguage(event, event.originalLang) as BaseDoc & { passwordHash?: string };
      // A series is one change, its record as a single event's (exports list its occurrences).
      return listedEventFor({ ...record, occurrence: null }, Boolean(doc.passwordHash), principal);
    });
    records = await withCurrentTermCounts(services, records, lang);
  }
  return new Map(records.map((record) => [Number(record.id), record]));
}

/**
 * The changes of `entries` as `principal` may see them, in `lang`, in the log's order: each
 * record at its latest state, read from MongoDB, or `delete` when it is gone, trashed or not in
 * the caller's list any more.
 */
export async function visibleChanges(
  services: Services,
  entries: ChangeEntry[],
  lang: Language,
  principal: Principal,
): Promise<Change[]> {
  const byKind = new Map<RecordKind, number[]>();
  for (const entry of entries) byKind.set(entry.kind, [...(byKind.get(entry.kind) ?? []), entry.id]);
  const presented = new Map<RecordKind, Map<number, ApiRecord>>();
  await Promise.all(
    [...byKind].map(async ([kind, ids]) =>
      presented.set(kind, await presentKind(services, kind, ids, lang, principal)),
    ),
  );
  return entries.map((entry) => {
    const record = presented.get(entry.kind)?.get(entry.id) ?? null;
    return {
      kind: PLURAL[entry.kind],
      id: entry.id,
      action: record ? 'upsert' : 'delete',
      modified_utc: toWire(DateTime.fromJSDate(entry.at, { zone: 'UTC' })),
      record,
    };
  });
}
