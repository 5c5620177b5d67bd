import type { estypes } from '@elastic/elasticsearch';
import { isProtectedFor } from '../../storage/recordAccess';
import type { Services } from '../container';
import { inLanguage } from '../../storage/storedRecord';
import type { Status } from '../../domain/status';
import type { Caller } from './eventList';
import { aliasName } from '../../search/indexNames';
import { withoutWindow, type ListQuery } from './listing';
import { buildPostSearch } from '../../search/postQuery';
import { requireEvent } from '../commands/references';
import { statusFilter } from '../../search/visibilityFilters';
import { PLURAL } from '../../domain/kinds';
import { isEditor } from '../../domain/policy';
import { liveOverrides } from '../../domain/recurrence/overrides';

/** The validated parameters of `GET /venues` and `GET /organizers` (interface.md 4.3, 4.4). */
export interface PostListInput {
  page: number;
  per_page: number;
  search?: string;
  event?: number;
  has_events?: boolean;
  only_with_upcoming?: boolean;
  status?: Status[];
}

/** The search of a venue or organizer list for the caller. */
export async function postListQuery(
  services: Services,
  kind: 'venue' | 'organizer',
  input: PostListInput,
  caller: Caller,
): Promise<ListQuery> {
  const now = caller.now ?? new Date();
  const status = statusFilter(caller.principal, input.status);
  let ids: number[] | undefined;
  if (input.event !== undefined) {
    const event = await requireEvent(services, input.event, 'event', caller.principal);
    const doc = inLanguage(event, event.originalLang);
    // A protected event's venue and organizers are blanked for whoever cannot bypass its password.
    const blanked = isProtectedFor(caller.principal, doc, Boolean(doc.passwordHash));
    // A series is linked to where its occurrences are too (an occurrence moved to another venue).
    const moved = liveOverrides(doc).flatMap((override) => override[PLURAL[kind]] ?? []);
    ids = blanked ? [] : [...new Set([...(doc[PLURAL[kind]] ?? []), ...moved])];
  }
  const request = withoutWindow(
    buildPostSearch(aliasName(services.config, kind, caller.lang), {
      status,
      search: input.search?.trim() || undefined,
      ids,
      hasEvents: input.has_events,
      upcomingAfter: input.only_with_upcoming ? now : undefined,
      countProtected: isEditor(caller.principal),
      from: 0,
      size: 0,
    }),
  );
  return { request, present: async (hits) => recordsOf(hits) };
}

/** The records index documents hold, as lists show them. */
export function recordsOf(hits: estypes.SearchHit<unknown>[]): Record<string, unknown>[] {
  return hits.map((hit) => (hit._source as { record?: Record<string, unknown> } | undefined)?.record ?? {});
}
