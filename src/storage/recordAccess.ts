import type { Principal } from '../domain/principal';
import { ForbiddenError } from '../domain/errors';
import { inLanguage, type BaseDoc, type StoredRecord } from './storedRecord';
import type { Status } from '../domain/status';
import { bypassesPassword, listAudience, mayRead, readDenial, type Audience, type Ownership } from '../domain/policy';
import type { RecordKind } from '../domain/kinds';

type ApiRecord = Record<string, unknown>;

/** The status and author of a stored document or an API record (terms have neither: public). */
export function ownershipOf(value: object): Ownership {
  const record = value as { status?: unknown; author?: unknown };
  return {
    status: (typeof record.status === 'string' ? record.status : 'publish') as Status,
    author: typeof record.author === 'number' ? record.author : 0,
  };
}

/** Status and author decide access; both are shared fields, the original document has them. */
export const recordOwnership = (record: StoredRecord<BaseDoc>): Ownership =>
  ownershipOf(inLanguage(record, record.originalLang));

/** Who lists show a record to whose original document is `doc` (listAudience). */
export const docAudience = (kind: RecordKind, doc: object): Audience[] =>
  listAudience(kind, ownershipOf(doc), (doc as { hide_from_listings?: unknown }).hide_from_listings === true);

/** Who lists show `record` to in the states given, together (nobody for a record gone). */
export function recordsAudience(kind: RecordKind, ...states: (StoredRecord<BaseDoc> | null)[]): Audience[] {
  const audience = states.flatMap((record) =>
    record ? docAudience(kind, inLanguage(record, record.originalLang)) : [],
  );
  return [...new Set(audience)];
}

/**
 * Whether events show `principal` a linked venue or organizer: one it may read, not trashed. The
 * venue and organizer filters of lists match only these.
 */
export function showsLink(principal: Principal, linked: Ownership): boolean {
  return linked.status !== 'trash' && mayRead(principal, linked);
}

/**
 * Throws the 403 of CONTRACT part 6 when `principal` may not read the record. `named` is how the
 * request named it (`ID 6`, `slug "summer-gala"`): a record found by its slug is refused without
 * giving away its ID.
 */
export function assertReadable(kind: RecordKind, principal: Principal, record: Ownership, named: string): void {
  const code = readDenial(kind, principal, record);
  if (code === null) return;
  if (record.status === 'trash') throw new ForbiddenError(code, `The ${kind} with ${named} has been deleted.`);
  throw new ForbiddenError(code, `The ${kind} with ${named} is not accessible.`);
}

const readable = (principal: Principal) => (linked: unknown) =>
  typeof linked === 'object' && linked !== null && mayRead(principal, ownershipOf(linked as ApiRecord));

/**
 * An API event as `principal` may see it: embedded venues and organizers the caller may not read
 * (a draft venue, for an anonymous caller) are left out. Used on single reads and on every list
 * answer, so the stored list record may embed every live link (see src/services/queries/eventList.ts).
 */
export function visibleEmbeds(event: ApiRecord, principal: Principal): ApiRecord {
  const out = { ...event };
  if ('venue' in event) {
    const venues = (Array.isArray(event.venue) ? event.venue : [event.venue]).filter(readable(principal));
    out.venue = venues.length === 0 ? [] : venues.length === 1 ? venues[0] : venues;
  }
  if (Array.isArray(event.organizer)) out.organizer = event.organizer.filter(readable(principal));
  return out;
}

/** Fields of a protected event that lists blank for callers without the password (CONTRACT part 6). */
export function blankProtected(event: ApiRecord): ApiRecord {
  const costDetails = event.cost_details as ApiRecord | undefined;
  return {
    ...event,
    description: '',
    excerpt: '',
    cost: '',
    cost_details: { ...(costDetails ?? {}), currency_symbol: '', values: [] },
    venue: [],
    organizer: [],
    website: '',
  };
}

/**
 * Whether `event` (an API record or a stored document: its status and author) is password
 * protected for `principal`: its single read needs the password, lists blank its protected fields.
 */
export function isProtectedFor(principal: Principal, event: object, passwordProtected: boolean): boolean {
  return passwordProtected && !bypassesPassword(principal, ownershipOf(event));
}

/** A listed event as `principal` may see it: protected text blanked, unreadable links left out. */
export function listedEventFor(event: ApiRecord, passwordProtected: boolean, principal: Principal): ApiRecord {
  const shown = isProtectedFor(principal, event, passwordProtected) ? blankProtected(event) : event;
  return visibleEmbeds(shown, principal);
}
