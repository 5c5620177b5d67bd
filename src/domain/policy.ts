/**
 * The access policy of CONTRACT part 6, as pure functions of the caller and the record: who may
 * read what, who may create, change and delete what, with which status. Handlers and lists ask
 * these functions and never test roles themselves. The decisions taken where the contract is
 * silent are listed in the /doc guide (docs/guide/<lang>/30-access.md).
 */
import { ForbiddenError } from './errors';
import type { Principal } from './principal';
import type { Status } from './status';
import { STATUS_WORDS, withArticle } from './words';
import type { RecordKind } from './kinds';

export const ALL_STATUSES: readonly Status[] = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];
/** Every status but `trash`: what a list shows when no `status` is asked for. */
export const LIVE_STATUSES: readonly Status[] = ALL_STATUSES.filter((status) => status !== 'trash');
/** Statuses a contributor's record can be in and still be changed by the contributor. */
const CONTRIBUTOR_EDITABLE: readonly Status[] = ['draft', 'pending', 'trash'];
/** Statuses a contributor may ask for; `publish` is stored as `pending`. */
const CONTRIBUTOR_WRITABLE: readonly Status[] = ['draft', 'pending'];

/** What access decisions need to know about a record (terms: always `publish`, author 0). */
export interface Ownership {
  status: Status;
  author: number;
}

/** A write's requested `status` and `author` (`null`: cleared, i.e. author 0). */
export interface WriteRequest {
  status?: Status;
  author?: number | null;
}

/** Allowed (with the status to store when it differs from the one requested), or denied and why. */
export type Verdict = { allowed: true; status?: Status } | { allowed: false; reason: string };

const allow = (status?: Status): Verdict => (status === undefined ? { allowed: true } : { allowed: true, status });
const deny = (reason: string): Verdict => ({ allowed: false, reason });

export const isTermKind = (kind: RecordKind): boolean => kind === 'category' || kind === 'tag';

export function isAuthenticated(principal: Principal): boolean {
  return principal.keyId !== null && principal.role !== null;
}

/** Editors and administrators: every record, every status, terms, other authors, `force`. */
export function isEditor(principal: Principal): boolean {
  return principal.role === 'editor' || principal.role === 'administrator';
}

/** The caller is the record's `author`. */
export function owns(principal: Principal, record: Ownership): boolean {
  return isAuthenticated(principal) && principal.userId > 0 && record.author === principal.userId;
}

/**
 * Published records are public; editors read everything; authors and contributors also read their
 * own records in any status (`private` included, as WordPress lets the owner read it).
 */
export function mayRead(principal: Principal, record: Ownership): boolean {
  return record.status === 'publish' || isEditor(principal) || owns(principal, record);
}

/** The 403 code of a single read the caller may not make, or null when it may. */
export function readDenial(kind: RecordKind, principal: Principal, record: Ownership): string | null {
  if (mayRead(principal, record)) return null;
  return record.status === 'trash' ? `${kind}-no-longer-available` : `${kind}-not-accessible`;
}

/** A protected event's text is shown without the password to editors and to its author. */
export function bypassesPassword(principal: Principal, event: Ownership): boolean {
  return isEditor(principal) || owns(principal, event);
}

/** Events may link (as venue / organizer) the records the caller may read. */
export function mayLink(principal: Principal, linked: Ownership): boolean {
  return mayRead(principal, linked);
}

/** Creating a term by name inside an event write is managing terms: editors and above. */
export function mayManageTerms(principal: Principal): boolean {
  return isEditor(principal);
}

/** `hide_from_listings` events are listed to editors and above (others: only through `include`). */
export function seesHiddenEvents(principal: Principal): boolean {
  return isEditor(principal);
}

/**
 * Who, besides editors, a list without filters shows a record in some state to: `everyone` when
 * it is published (an event also listed), and its author, who lists their own records in any
 * live status. What the change feed keeps of each record's states (storage/changeLog.ts).
 */
export type Audience = 'everyone' | number;

export function listAudience(kind: RecordKind, owner: Ownership, hiddenFromListings: boolean): Audience[] {
  if (isTermKind(kind)) return ['everyone'];
  const listed = owner.status === 'publish' && !(kind === 'event' && hiddenFromListings);
  return [...(listed ? (['everyone'] as const) : []), ...(owner.author > 0 ? [owner.author] : [])];
}

/**
 * Whether a list of the caller's may once have shown a record of `kind` whose states had
 * `audience` (undefined: not known, so maybe; categories and tags: always): what decides whether
 * the change feed tells the caller the record is gone, rather than naming a record the caller
 * never saw (a draft's ID).
 */
export function mayHaveListed(
  principal: Principal,
  kind: RecordKind,
  audience: readonly Audience[] | undefined,
): boolean {
  if (isTermKind(kind) || audience === undefined || isEditor(principal) || audience.includes('everyone')) return true;
  return isAuthenticated(principal) && principal.userId > 0 && audience.includes(principal.userId);
}

/**
 * Which statuses a list shows: `everyone` for records of any author, `own` only for the caller's
 * own records; `forbidden` names the requested statuses the caller may not read at all.
 */
export interface ListScope {
  everyone: Status[];
  own: Status[];
  forbidden: Status[];
}

export function listScope(principal: Principal, asked: readonly Status[] | undefined): ListScope {
  // `status=` (no status at all) asks for the default, as an absent parameter does.
  const requested = asked?.length ? asked : undefined;
  if (isEditor(principal)) return { everyone: [...(requested ?? LIVE_STATUSES)], own: [], forbidden: [] };
  const readsOwn = isAuthenticated(principal) && principal.userId > 0;
  const wanted = requested ?? (readsOwn ? LIVE_STATUSES : ['publish']);
  const others = wanted.filter((status) => status !== 'publish');
  return {
    everyone: wanted.filter((status) => status === 'publish'),
    own: readsOwn ? others : [],
    forbidden: readsOwn ? [] : others,
  };
}

const authorOf = (request: WriteRequest): number | undefined => (request.author === null ? 0 : request.author);

function checkAuthor(principal: Principal, request: WriteRequest): Verdict | null {
  const author = authorOf(request);
  if (author === undefined || author === principal.userId || isEditor(principal)) return null;
  return deny('Only editors and administrators may make someone else the author.');
}

/** The status a contributor's write stores: `publish` becomes `pending`; other statuses are refused. */
function contributorStatus(requested: Status | undefined, creating: boolean): Verdict {
  if (requested === undefined) return creating ? allow('pending') : allow();
  if (requested === 'publish') return allow('pending');
  if (CONTRIBUTOR_WRITABLE.includes(requested)) return allow(requested);
  return deny(`Contributors may only write drafts and pending records, not ${requested}.`);
}

const TERMS_DENIED = 'Only editors and administrators manage categories and tags.';

export function decideCreate(kind: RecordKind, principal: Principal, request: WriteRequest): Verdict {
  if (!isAuthenticated(principal)) return deny('An API key is required.');
  if (isTermKind(kind)) return isEditor(principal) ? allow() : deny(TERMS_DENIED);
  const author = checkAuthor(principal, request);
  if (author) return author;
  if (principal.role === 'contributor') return contributorStatus(request.status, true);
  return allow();
}

export function decideUpdate(
  kind: RecordKind,
  principal: Principal,
  existing: Ownership,
  request: WriteRequest,
): Verdict {
  if (!isAuthenticated(principal)) return deny('An API key is required.');
  if (isTermKind(kind)) return isEditor(principal) ? allow() : deny(TERMS_DENIED);
  if (isEditor(principal)) return allow();
  if (!owns(principal, existing)) return deny(`You may only change your own ${kind}s.`);
  const author = checkAuthor(principal, request);
  if (author) return author;
  if (principal.role !== 'contributor') return allow();
  if (!CONTRIBUTOR_EDITABLE.includes(existing.status)) {
    return deny(`Contributors may not change ${withArticle(kind)} once it is ${STATUS_WORDS[existing.status]}.`);
  }
  return contributorStatus(request.status, false);
}

export function decideDelete(kind: RecordKind, principal: Principal, existing: Ownership, force: boolean): Verdict {
  if (!isAuthenticated(principal)) return deny('An API key is required.');
  if (isTermKind(kind)) return isEditor(principal) ? allow() : deny(TERMS_DENIED);
  if (isEditor(principal)) return allow();
  if (force) return deny('Only editors and administrators may delete permanently (force=true).');
  if (!owns(principal, existing)) return deny(`You may only delete your own ${kind}s.`);
  if (principal.role === 'contributor' && !CONTRIBUTOR_EDITABLE.includes(existing.status)) {
    return deny(`Contributors may not delete ${withArticle(kind)} once it is ${STATUS_WORDS[existing.status]}.`);
  }
  return allow();
}

/** The request's `status` and `author`, as the write decisions read them. */
/** The status and author a write's input asks for (posts send them; terms have neither). */
export function writeRequestOf(input: object): WriteRequest {
  const { status, author }: WriteRequest = input;
  return { status, author };
}

/**
 * `input` as the verdict allows it to be written (the status to store replacing the requested
 * one), or the 403 `rest_forbidden` of a denied write.
 */
export function applyVerdict<I extends object>(verdict: Verdict, input: I): I {
  if (!verdict.allowed) throw new ForbiddenError('rest_forbidden', verdict.reason);
  return verdict.status === undefined ? input : { ...input, status: verdict.status };
}
