import type { Services } from '../services/container';
import { waitUntilSearchable } from '../services/waitForIndex';
import type { RecordKind } from '../domain/kinds';
import type { AppContext } from './types';

/** Whether the request asks `Prefer: wait-for-index` (CONTRACT part 8), among other preferences. */
function prefersWaitForIndex(ctx: AppContext): boolean {
  return ctx
    .get('Prefer')
    .split(',')
    .some((preference) => preference.split(';')[0]?.trim().toLowerCase() === 'wait-for-index');
}

/**
 * For a write handler, after the write: with `Prefer: wait-for-index` (CONTRACT part 8) answers
 * only once the change is searchable and sets `Preference-Applied: wait-for-index`; after
 * WAIT_FOR_INDEX_MS (5 s by default) it lets the response go without that header. Without the
 * preference it returns at once.
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
