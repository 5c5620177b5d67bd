import { PLURAL } from '../../domain/kinds';
import type { RouteSpec } from '../../http/types';
import { pagingParams } from '../../http/listPage';
import { filterList, Joi, id, language, searchText, type LanguageInput } from '../../http/params';
import { inputSchema } from '../../http/route';
import { postListQuery, type PostListInput } from '../../services/queries/postList';
import { STATUS_PARAM_DESCRIPTION, STATUSES } from '../../search/visibilityFilters';
import type { Services } from '../../services/container';
import { exportRoute } from '../exportRoute';
import { listRoute } from '../listRoute';

/** Parameters of a venue or organizer list; `label` names the kind in descriptions. */
function postListSchema(label: string) {
  return inputSchema<PostListInput & LanguageInput>()({
    ...pagingParams(),
    search: searchText().description(
      `Full-text search (typo-tolerant, in the request language) over the ${label}'s name, description and details`,
    ),
    event: id().description(`Only the ${label}s of this event (a non-event ID is a 400)`),
    has_events: Joi.flag().description(`Only ${label}s with (true) or without (false) published events`),
    only_with_upcoming: Joi.flag().default(false).description(`Only ${label}s with a published event not yet ended`),
    status: filterList()
      .items(Joi.string().valid(...STATUSES))
      .max(STATUSES.length)
      .description(STATUS_PARAM_DESCRIPTION),
    i18n_language: language(),
  });
}

/** `GET /venues` or `GET /organizers`: ordered by name. */
export function postListRoutes(services: Services, kind: 'venue' | 'organizer'): RouteSpec[] {
  const plural = PLURAL[kind];
  const description = `${plural[0]!.toUpperCase()}${plural.slice(1)} in the request language (each in its original language when not translated), ordered by name.`;
  return [
    exportRoute(services, kind, postListSchema(kind), (input: PostListInput, caller) =>
      postListQuery(services, kind, input, caller),
    ),
    listRoute(services, kind, { description, input: postListSchema(kind) }, (input: PostListInput, caller) =>
      postListQuery(services, kind, input, caller),
    ),
  ];
}
