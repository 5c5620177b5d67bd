import { createHash } from 'node:crypto';
import type { Language } from '../../../config';
import { RECORD_KINDS, type RecordKind } from '../../domain/kinds';
import type { Principal } from '../../domain/principal';
import type { ConcurrencyLimit } from '../../lib/concurrencyLimit';
import type { Services } from '../container';
import { visibleChangesJson } from './changeFeed';
import { changeEntriesAfter } from './changeLogReads';
import { LIST_CACHE_TTL_MS, processCacheOf } from './listCache';

/** A page of `/changes` as sent: its JSON, and a SHA-1 of the changes it lists and where it ends (its entity tag's). */
export interface ChangePage {
  /** The JSON in the buffers it was written in: the records' are those kept (keptChangeRecords.ts). */
  body: readonly Buffer[];
  digest: string;
}

export interface ChangePageRequest {
  /** The position of `since` (0: from the oldest change kept). */
  since: number;
  kinds?: RecordKind[];
  perPage: number;
}

/**
 * Full pages kept per process: the one asked last, for the followers asking the same position.
 * A page is held as the buffers it was written in, its records' shared with keptChangeRecords.ts,
 * until it is sent again (then joined: about 5 MB at 1,000 changes); pages from positions nobody
 * asks again are dropped sooner (each kept page took the API about 5 MB higher while pages from
 * many positions were assembled).
 */
const KEPT_PAGES = 1;

/**
 * One page of `/changes` for `principal`, in `lang`: `tokenOf` makes `next_since`; `builds`
 * bounds the changes presented at once (a page weighs its length: each holds a few MB while presented).
 *
 * A full page (`has_more`) is kept per process up to LIST_CACHE_TTL_MS, under the change marks of
 * every kind read afresh for each request (storage/changeMarks.ts): every write bumps its kind's
 * mark before its change is logged and answered, so a page is never served after a write this
 * caller could have seen, from any process. What records show without a write of theirs (term
 * counts from the index, a series' next occurrences) may lag the way lists' lookups do, a second
 * at most: a page is served until a second after its assembly was asked for, and assembled again
 * from half that age on while it is asked for. The last page is assembled every time: which of its
 * changes have settled depends on the time (CHANGES_SETTLE_MS). Requests for a page being
 * assembled share it.
 */
export async function changePage(
  services: Services,
  request: ChangePageRequest,
  lang: Language,
  principal: Principal,
  { tokenOf, builds }: { tokenOf: (seq: number) => Promise<string>; builds: ConcurrencyLimit },
): Promise<ChangePage> {
  const current = await services.sync.marks.current(RECORD_KINDS);
  const marks = RECORD_KINDS.map((kind) => current.get(kind)?.n ?? 0);
  const key = JSON.stringify(['changes', request, lang, principal.role, principal.userId, marks]);
  const kept = processCacheOf(services, LIST_CACHE_TTL_MS, KEPT_PAGES);
  const start = (): Kept => {
    const started: Kept = {
      assembled: builds.run(() => assemble(services, request, marks, lang, principal, tokenOf), request.perPage),
      askedAt: Date.now(),
      busy: true,
    };
    const idle = () => (started.busy = false);
    started.assembled.then(idle, idle);
    return started;
  };
  const forget = (entry: Kept) => kept.last(key) === entry && kept.delete(key);
  const now = Date.now();
  let entry = kept.get<Kept>(key);
  if (!entry || now - entry.askedAt >= LIST_CACHE_TTL_MS) {
    const fresh = start();
    kept.set(key, fresh);
    fresh.assembled.then(
      ({ full }) => full || forget(fresh),
      () => forget(fresh),
    );
    entry = fresh;
  } else if (now - entry.askedAt >= LIST_CACHE_TTL_MS / 2 && !entry.busy) {
    // Assembled again ahead of its time, so that the followers asking meanwhile are not all held
    // by the next assembly once it expires.
    const old = entry;
    old.busy = true;
    const next = start();
    next.assembled.then(
      ({ full }) => (full ? kept.set(key, next) : forget(old)),
      () => (old.busy = false),
    );
  }
  return (await entry.assembled).page;
}

/** A full page kept, or being assembled: what it shows was read after `askedAt`. */
interface Kept {
  assembled: Promise<{ page: ChangePage; full: boolean }>;
  askedAt: number;
  /** Being assembled, or assembled again ahead of its time. */
  busy: boolean;
}

async function assemble(
  services: Services,
  { since, kinds, perPage }: ChangePageRequest,
  marks: readonly number[],
  lang: Language,
  principal: Principal,
  tokenOf: (seq: number) => Promise<string>,
): Promise<{ page: ChangePage; full: boolean }> {
  const settledAt = new Date(Date.now() - services.config.integration.changesSettleMs);
  const entries = await changeEntriesAfter(services, { since, kinds, limit: perPage + 1 }, marks, settledAt);
  const changes = await visibleChangesJson(services, entries.slice(0, perPage), lang, principal);
  // Ended early before a series waiting for the index: the rest is not ready yet (no `has_more`).
  const last = changes.length > 0 ? entries[changes.length - 1]!.seq : since;
  const full = changes.length === perPage && entries.length > perPage;
  const rest = JSON.stringify({ next_since: await tokenOf(last), has_more: full });
  // The changes come as JSON already: the envelope is written around them.
  const pieces: Buffer[] = [OPEN];
  // Of what the page shows, not of its bytes: next_since carries the time it was given.
  const hash = createHash('sha1').update(JSON.stringify([last, full]));
  let written = 0;
  for (const change of changes) {
    if (!change) continue;
    if (written++ > 0) pieces.push(COMMA);
    pieces.push(change.head, change.record ?? NULL, CLOSE);
    hash.update(change.head).update(change.recordDigest ?? NULL);
  }
  pieces.push(Buffer.from(`],${rest.slice(1)}`));
  return { page: { body: pieces, digest: hash.digest('base64url') }, full };
}

const OPEN = Buffer.from('{"changes":[');
const NULL = Buffer.from('null');
const CLOSE = Buffer.from('}');
const COMMA = Buffer.from(',');
