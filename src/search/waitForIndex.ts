import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../http/types';
import type { Services } from '../services';
import { syncKey } from '../storage/syncQueue';
import type { RecordKind } from '../domain/kinds';

export const WAIT_FOR_INDEX_TIMEOUT_MS = 5_000;
const POLL_MS = 20;

/** Kinds whose index documents are refreshed when a record of `kind` changes. */
const DEPENDENT_KINDS: Record<RecordKind, RecordKind[]> = {
  event: ['venue', 'organizer', 'category', 'tag'],
  venue: ['event'],
  organizer: ['event'],
  category: ['event'],
  tag: ['event'],
};

export function prefersWaitForIndex(ctx: AppContext): boolean {
  return ctx
    .get('Prefer')
    .split(',')
    .some((preference) => preference.split(';')[0]?.trim().toLowerCase() === 'wait-for-index');
}

async function until(deadline: number, done: () => Promise<boolean>): Promise<boolean> {
  while (!(await done())) {
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

/**
 * Waits until the write to record `kind`/`id` is searchable: its current sync version indexed,
 * then the dependent records the worker marked dirty on the way (events of a renamed venue, the
 * terms of a changed event...), then a refresh. Resolves to false after `timeoutMs`.
 */
export async function waitUntilSearchable(
  services: Services,
  kind: RecordKind,
  id: number,
  timeoutMs = WAIT_FOR_INDEX_TIMEOUT_MS,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const { entries } = services.sync;
  const target = (await entries.findOne({ _id: syncKey(kind, id) }))?.version ?? 0;
  const indexed = await until(deadline, async () => (await services.sync.indexedVersion(kind, id)) >= target);
  if (!indexed) return false;
  const markedBefore = new Date();
  const dependentsIndexed = await until(
    deadline,
    async () =>
      (await entries.countDocuments(
        { pending: true, kind: { $in: DEPENDENT_KINDS[kind] }, dirtyAt: { $lte: markedBefore } },
        { limit: 1 },
      )) === 0,
  );
  if (!dependentsIndexed) return false;
  await services.search.indices.refresh({ index: `${services.config.elasticsearch.indexPrefix}-*` });
  return true;
}

/**
 * For a write handler, after the write: with `Prefer: wait-for-index` (CONTRACT part 8) answers
 * only once the change is searchable and sets `Preference-Applied: wait-for-index`; after 5 s it
 * lets the response go without that header. Without the preference it returns at once.
 */
export async function waitForIndex(ctx: AppContext, services: Services, kind: RecordKind, id: number): Promise<void> {
  if (!prefersWaitForIndex(ctx)) return;
  const applied = await waitUntilSearchable(services, kind, id).catch((err: unknown) => {
    ctx.state.log?.warn({ err, kind, id }, 'wait-for-index failed');
    return false;
  });
  if (applied) {
    ctx.set('Preference-Applied', 'wait-for-index');
    ctx.vary('Prefer');
  }
}
