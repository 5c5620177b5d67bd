import {
  filterList,
  idList,
  idOrZero,
  Joi,
  language,
  MAX_LIST_ITEMS,
  searchText,
  type LanguageInput,
} from '../../http/params';
import { pagingParams } from '../../http/listPage';
import { inputSchema, type InputKeys } from '../../http/route';
import { discoveryParams } from './discoveryParams';
import { TERM_SLUG_MAX } from '../terms/schema';
import type { RouteSpec } from '../../http/types';
import { eventListQuery, type EventListInput } from '../../services/queries/eventList';
import { STATUS_PARAM_DESCRIPTION, STATUSES } from '../../search/visibilityFilters';
import type { Services } from '../../services/container';
import { exportRoute } from '../exportRoute';
import { listRoute } from '../listRoute';
import { negotiatingCalendar, sendEventListFeed } from './feed';

const date = (meaning: string) => Joi.dateInput().description(meaning);
/** Category and tag filters take IDs or slugs. */
const termRefs = (kind: string) =>
  filterList()
    .items(Joi.alternatives().try(Joi.number().integer().min(1), Joi.string().trim().min(1).max(TERM_SLUG_MAX)))
    .max(MAX_LIST_ITEMS)
    .description(
      `Events in any of these ${kind} (IDs or slugs${kind === 'categories' ? ', each with its descendants' : ''}); an unknown one is a 400`,
    );

/** The date parameters of event lists (interface.md 4.2, CONTRACT part 7). */
export type EventDateParams = Pick<
  EventListInput,
  'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after' | 'strict_dates'
>;

export function eventDateParams(): InputKeys<EventDateParams> {
  return {
    start_date: date('Events starting at or after this date (default: now; the whole day unless strict_dates)'),
    end_date: date(
      'Events starting at or before this date (default: now + 2 years, whatever the start_date; the whole day unless strict_dates)',
    ),
    starts_before: date('Events starting before the end of this day (before this time with strict_dates)'),
    starts_after: date('Events starting after the end of this day (after this time with strict_dates)'),
    ends_before: date('Events ending before the end of this day (before this time with strict_dates)'),
    ends_after: date('Events ending after the end of this day (after this time with strict_dates)'),
    // "When set" (interface.md): present without a value (`?strict_dates`) is on.
    strict_dates: Joi.flag()
      .truthy('')
      .default(false)
      .description(
        'Apply dates at the exact times given (set without a value: on); by default each date stands for its whole day',
      ),
  };
}

export const eventListSchema = inputSchema<EventListInput & LanguageInput>()({
  ...pagingParams(),
  ...eventDateParams(),
  search: searchText().description(
    'Full-text search (typo-tolerant, in the request language) over title, description, excerpt, venue, organizers, categories and tags',
  ),
  categories: termRefs('categories'),
  tags: termRefs('tags'),
  venue: idList().description('Events at any of these venues'),
  organizer: idList().description('Events of any of these organizers'),
  featured: Joi.flag().description('Only featured (true) or only not featured (false) events'),
  status: filterList()
    .items(Joi.string().valid(...STATUSES))
    .max(STATUSES.length)
    .description(STATUS_PARAM_DESCRIPTION),
  geoloc: Joi.flag().description('Only events whose venue has (true) or lacks (false) coordinates'),
  geoloc_lat: Joi.number().min(-90).max(90).description('Latitude of the point to search around (with geoloc_lng)'),
  geoloc_lng: Joi.number().min(-180).max(180).description('Longitude of the point to search around (with geoloc_lat)'),
  geoloc_radius: Joi.number()
    .positive()
    .max(20_000)
    .default(25)
    .description('Search radius around geoloc_lat/geoloc_lng'),
  geoloc_unit: Joi.string()
    .lowercase()
    .valid('mi', 'km')
    .default('mi')
    .description("Unit of geoloc_radius and of each result's distance"),
  include: idList().description(
    'Only these event IDs; date filters are then ignored; a recurring event is listed once (ours)',
  ),
  hide_subsequent_recurrences: Joi.flag().description(
    'Lists each recurring event once, as its first occurrence matching the filters (ours, EXTENSIONS part 11); default false: one entry per occurrence',
  ),
  post_parent: idOrZero().description('Events whose parent is this event (0: events without a parent)'),
  ticketed: Joi.flag().description('Only events with (true) or without (false) tickets'),
  orderby: Joi.string()
    .lowercase()
    .valid('start_date', 'title', 'modified', 'relevance', 'distance')
    .description(
      'Sort key: start_date (default), relevance (default with search), title, modified, distance (needs geoloc_lat/lng)',
    ),
  order: Joi.string()
    .lowercase()
    .valid('asc', 'desc')
    .description('Sort direction (asc by default, desc for relevance)'),
  ...discoveryParams(),
  i18n_language: language(),
});

/** `GET /events`: the event list, served from the search index. */
export function eventListRoutes(services: Services): RouteSpec[] {
  const description =
    'Events in the request language (each in its original language when not translated), ordered by start date then ID. ' +
    'Default window: from now (the start of today in the site time zone unless strict_dates) to now + 2 years; dates run from year 1 to 9999. ' +
    "Dates written without an offset (days, local times, today) compare each event's local time in its own time zone; instants (with an offset, unix timestamps, now, +N days) " +
    "compare each event's instant, widened to their whole day in the offset written or the site time zone unless strict_dates. " +
    'With geoloc_lat/geoloc_lng each event carries `distance` in geoloc_unit.';
  const list = listRoute(
    services,
    'event',
    {
      description: `${description} With \`Accept: text/calendar\`: the feed of \`GET /events.ics\`.`,
      input: eventListSchema,
    },
    (input, caller) => eventListQuery(services, input, caller),
  );
  return [
    exportRoute(services, 'event', eventListSchema, (input, caller) => eventListQuery(services, input, caller)),
    negotiatingCalendar(list, (ctx) => sendEventListFeed(ctx, services)),
  ];
}
