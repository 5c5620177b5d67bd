import { isProtectedFor } from '../../storage/recordAccess';
import type { Services } from '../container';
import { inLanguage } from '../../storage/storedRecord';
import type { Status } from '../../domain/status';
import type { Caller, ListResult } from './eventList';
import { aliasName } from '../../search/indexNames';
import { pageRequest, searchIndex, totalOf } from './listing';
import { buildPostSearch } from '../../search/postQuery';
import { requireEvent } from '../commands/references';
import { statusFilter } from '../../search/visibilityFilters';
import { PLURAL } from '../../domain/kinds';

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

/** One page of venues or organizers from the search index. */
export async function listPosts(
  services: Services,
  kind: 'venue' | 'organizer',
  input: PostListInput,
  caller: Caller,
  now = new Date(),
): Promise<ListResult> {
  const page = pageRequest(input.page, input.per_page);
  const status = statusFilter(caller.principal, input.status);
  let ids: number[] | undefined;
  if (input.event !== undefined) {
    const event = await requireEvent(services, input.event, 'event', caller.principal);
    const doc = inLanguage(event, event.originalLang);
    // A protected event's venue and organizers are blanked for whoever cannot bypass its password.
    const blanked = isProtectedFor(caller.principal, doc, Boolean(doc.passwordHash));
    ids = blanked ? [] : (doc[PLURAL[kind]] ?? []);
  }
  const response = await searchIndex<{ record: Record<string, unknown> }>(
    services,
    buildPostSearch(aliasName(services.config, kind, caller.lang), {
      status,
      search: input.search?.trim() || undefined,
      ids,
      hasEvents: input.has_events,
      upcomingAfter: input.only_with_upcoming ? now : undefined,
      from: page.from,
      size: page.size,
    }),
  );
  return { items: response.hits.hits.map((hit) => hit._source?.record ?? {}), total: totalOf(response), page };
}
