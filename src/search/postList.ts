import { isProtectedFor } from '../auth/visibility';
import { Joi, id, language, text } from '../http/params';
import type { Services } from '../services';
import { inLanguage } from '../storage/storedRecord';
import type { Status } from '../storage/stores';
import type { Caller, ListResult } from './eventList';
import { aliasName } from './indexNames';
import { pagingParams, pageRequest, searchIndex, totalOf } from './listing';
import { buildPostSearch } from './postQuery';
import { requireEvent } from './references';
import { STATUS_PARAM_DESCRIPTION, STATUSES, statusFilter } from './visibility';

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

/** Parameters of a venue or organizer list; `label` names the kind in descriptions. */
export function postListSchema(label: string) {
  return Joi.object({
    ...pagingParams(),
    search: text(500).description(
      `Full-text search (typo-tolerant, in the request language) over the ${label}'s name, description and details`,
    ),
    event: id().description(`Only the ${label}s of this event (a non-event ID is a 400)`),
    has_events: Joi.flag().description(`Only ${label}s with (true) or without (false) published events`),
    only_with_upcoming: Joi.flag().default(false).description(`Only ${label}s with a published event not yet ended`),
    status: Joi.list()
      .items(Joi.string().valid(...STATUSES))
      .max(STATUSES.length)
      .description(STATUS_PARAM_DESCRIPTION),
    i18n_language: language(),
  });
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
    ids = blanked ? [] : ((kind === 'venue' ? doc.venues : doc.organizers) ?? []);
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
