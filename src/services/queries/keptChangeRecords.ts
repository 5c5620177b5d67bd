import { createHash } from 'node:crypto';
import type { Language } from '../../../config';
import type { Principal } from '../../domain/principal';
import { SizedCache } from '../../lib/sizedCache';
import type { ChangeEntry } from '../../storage/changeLog';
import { syncKey } from '../../storage/syncQueue';
import type { Services } from '../container';
import { EMBEDDED, type IndexedCopy, type LatestStates } from './indexedChanges';
import { countsStillCurrent, embeddedTermsOf, type EmbeddedTerm } from './termCounts';

/** The JSON of change records kept per process: about 3,000 events' records. */
const MAX_KEPT_RECORD_BYTES = 16 * 1024 * 1024;

/** What a kept record weighs beside its JSON: its key and digest, and each embedded key or term. */
const KEPT_RECORD_OVERHEAD = 512;
const KEPT_REFERENCE_BYTES = 32;

/**
 * A change's record as presented from its index copy, for one caller, at one sync version of the
 * record: the same until the version moves, but for what a version does not cover.
 */
interface KeptRecord {
  /** The record's JSON as UTF-8 and its SHA-1, or null when the caller's list leaves it out (a `delete`). */
  json: RecordJson | null;
  /** The records the copy embeds, by sync key: while one is pending, the copy is not its latest state. */
  embeds: string[];
  /** The terms it embeds, with the counts it shows: those change with other events, not its version. */
  terms: EmbeddedTerm[];
  /** Its weight in the cache, in bytes. */
  length: number;
}

/** A record's JSON as UTF-8, and the SHA-1 of it a page's digest takes. */
export interface RecordJson {
  record: Buffer;
  digest: Buffer;
}

/** A presented record as written into a page. */
export function recordJsonOf(record: Record<string, unknown>): RecordJson {
  const bytes = Buffer.from(JSON.stringify(record));
  return { record: bytes, digest: createHash('sha1').update(bytes).digest() };
}

const kept = new WeakMap<Services, SizedCache<KeptRecord>>();

function keptOf(services: Services): SizedCache<KeptRecord> {
  let found = kept.get(services);
  if (!found) kept.set(services, (found = new SizedCache<KeptRecord>(MAX_KEPT_RECORD_BYTES)));
  return found;
}

/** Where an entry's record is kept: by record, language, sync version and caller (lists differ by caller). */
function keyOf(entry: ChangeEntry, lang: Language, principal: Principal): string | undefined {
  if (entry.version === undefined) return undefined;
  return `${syncKey(entry.kind, entry.id)}|${lang}|${entry.version}|${principal.role}|${principal.userId}`;
}

/**
 * The records of `entries` kept for this caller that still hold their latest state (in the
 * entries' order, undefined where none is): kept at the version of their entries, embedding no
 * record `states` finds pending, showing the term counts the term indexes give now. A change page
 * of records kept is written without reading or presenting them again.
 */
export async function keptChangeRecords(
  services: Services,
  entries: readonly ChangeEntry[],
  states: LatestStates,
  lang: Language,
  principal: Principal,
): Promise<(RecordJson | null | undefined)[]> {
  const cache = keptOf(services);
  const found = entries.map((entry) => {
    const key = keyOf(entry, lang, principal);
    const record = key === undefined ? undefined : cache.get(key);
    return record && !record.embeds.some((embedded) => states.pending.has(embedded)) ? record : undefined;
  });
  const current = await countsStillCurrent(
    services,
    found.map((record) => record?.terms ?? []),
    lang,
  );
  return found.map((record, i) => (record && current[i] ? record.json : undefined));
}

/**
 * Keeps the record presented for `entry` from `copy` (null: left out of the caller's list) and
 * gives its JSON. The copy holds the record's state at the version of its entry
 * (currentIndexedCopies).
 */
export function keepChangeRecord(
  services: Services,
  entry: ChangeEntry,
  { copy, record }: { copy: IndexedCopy; record: Record<string, unknown> | null },
  lang: Language,
  principal: Principal,
): RecordJson | null {
  const json = record && recordJsonOf(record);
  const key = keyOf(entry, lang, principal);
  if (key === undefined) return json;
  const embeds = EMBEDDED.flatMap(([field, kind]) => (copy[field] ?? []).map((id) => syncKey(kind, id)));
  const terms = record === null ? [] : embeddedTermsOf(record);
  const references = embeds.length + terms.length;
  const length = (json?.record.length ?? 0) + KEPT_RECORD_OVERHEAD + KEPT_REFERENCE_BYTES * references;
  keptOf(services).set(key, { json, embeds, terms, length });
  return json;
}
