import { createHash } from 'node:crypto';
import type { Language } from '../../../config';
import { RECORD_KINDS, type RecordKind } from '../../domain/kinds';
import type { Principal } from '../../domain/principal';
import type { ConcurrencyLimit } from '../../lib/concurrencyLimit';
import type { Services } from '../container';
import { visibleChangesJson } from './changeFeed';
import { LIST_CACHE_TTL_MS, processCacheOf } from './listCache';

/** A page of `/changes` as sent: its JSON, and the SHA-1 of those bytes (what its entity tag is made of). */
export interface ChangePage {
  body: Buffer;
  digest: string;
}

export interface ChangePageRequest {
  /** The position of `since` (0: from the oldest change kept). */
  since: number;
  kinds?: RecordKind[];
  perPage: number;
}

/** Full pages kept per process (about 5 MB each at 1,000 changes). */
const KEPT_PAGES = 4;

/**
 * One page of `/changes` for `principal`, in `lang`: `tokenOf` makes `next_since`; `builds`
 * bounds the pages assembled at once (each holds a few MB while presented).
 *
 * A full page (`has_more`) is kept per process up to LIST_CACHE_TTL_MS, under the change marks of
 * every kind read afresh for each request (storage/changeMarks.ts): every write bumps its kind's
 * mark before its change is logged and answered, so a page is never served after a write this
 * caller could have seen, from any process. What records show without a write of theirs (term
 * counts from the index, a series' next occurrences) may lag the way lists' lookups do, a second
 * at most. The last page is assembled every time: which of its changes have settled depends on the
 * time (CHANGES_SETTLE_MS). Requests for a page being assembled share it.
 */
export async function changePage(
  services: Services,
  request: ChangePageRequest,
  lang: Language,
  principal: Principal,
  { tokenOf, builds }: { tokenOf: (seq: number) => Promise<string>; builds: ConcurrencyLimit },
): Promise<ChangePage> {
  const marks = await services.sync.marks.current(RECORD_KINDS);
  const key = JSON.stringify([
    'changes',
    request,
    lang,
    principal.role,
    principal.userId,
    RECORD_KINDS.map((kind) => marks.get(kind)?.n ?? 0),
  ]);
  const kept = processCacheOf(services, LIST_CACHE_TTL_MS, KEPT_PAGES);
  const known = kept.get<Promise<{ page: ChangePage; full: boolean }>>(key);
  const building = known ?? builds.run(() => assemble(services, request, lang, principal, tokenOf));
  if (!known) {
    kept.set(key, building);
    building.then(
      ({ full }) => full || kept.delete(key),
      () => kept.delete(key),
    );
  }
  return (await building).page;
}

async function assemble(
  services: Services,
  { since, kinds, perPage }: ChangePageRequest,
  lang: Language,
  principal: Principal,
  tokenOf: (seq: number) => Promise<string>,
): Promise<{ page: ChangePage; full: boolean }> {
  const settledAt = new Date(Date.now() - services.config.integration.changesSettleMs);
  const entries = await services.sync.changes.after(since, kinds, perPage + 1, settledAt);
  const page = entries.slice(0, perPage);
  const last = page.length > 0 ? page[page.length - 1]!.seq : since;
  const full = entries.length > perPage;
  const changes = await visibleChangesJson(services, page, lang, principal);
  const rest = JSON.stringify({ next_since: await tokenOf(last), has_more: full });
  // The changes come as JSON already (presented in parts): the envelope is written around them,
  // and the text encoded once (measured, its length and the socket each took as long again).
  const body = Buffer.from(`{"changes":${changes},${rest.slice(1)}`);
  return { page: { body, digest: createHash('sha1').update(body).digest('base64url') }, full };
}
