import type { Language } from '../../../config';
import { ValidationError } from '../../domain/errors';
import { seesHiddenEvents } from '../../domain/policy';
import { listedEventFor } from '../../storage/recordAccess';
import type { Principal } from '../../domain/principal';
import type { Services } from '../container';
import type { Status } from '../../domain/status';
import { eventDateClauses, type DateFilterInput } from '../../search/dateFilters';
import {
  buildEventSearch,
  seriesCountOf,
  type DistanceUnit,
  type EventOrderBy,
  type GeoFilter,
} from '../../search/eventQuery';
import { aliasName } from '../../search/indexNames';
import { pageRequest, searchIndex, totalOf, type PageRequest } from './listing';
import { shownLinkIds, requireEvent, resolveTermRefs, withDescendantCategories } from '../commands/references';
import { withCurrentTermCounts } from './termCounts';
import { shownLinksFilter, statusFilter } from '../../search/visibilityFilters';

/** The validated parameters of `GET /events` (interface.md 4.2, CONTRACT part 7). */
export interface EventListInput extends DateFilterInput {
  page: number;
  per_page: number;
  search?: string;
  categories?: (number | string)[];
  tags?: (number | string)[];
  venue?: number[];
  organizer?: number[];
  featured?: boolean;
  status?: Status[];
  geoloc?: boolean;
  geoloc_lat?: number;
  geoloc_lng?: number;
  geoloc_radius: number;
  geoloc_unit: DistanceUnit;
  include?: number[];
  post_parent?: number;
  ticketed?: boolean;
  hide_subsequent_recurrences?: boolean;
  orderby?: EventOrderBy;
  order?: 'asc' | 'desc';
}

export interface Caller {
  lang: Language;
  principal: Principal;
}

export interface ListResult {
  items: Record<string, unknown>[];
  total: number;
  page: PageRequest;
}

interface EventHit {
  record: Record<string, unknown>;
  password_protected?: boolean;
}

function geoFilterOf(input: EventListInput): GeoFilter | undefined {
  const { geoloc_lat: lat, geoloc_lng: lng } = input;
  if (lat === undefined && lng === undefined) return undefined;
  if (lat === undefined) throw new ValidationError({ geoloc_lat: 'geoloc_lat is required with geoloc_lng' });
  if (lng === undefined) throw new ValidationError({ geoloc_lng: 'geoloc_lng is required with geoloc_lat' });
  return { lat, lng, radius: input.geoloc_radius, unit: input.geoloc_unit };
}

/** An empty list (`venue=`) filters nothing, as if not sent. */
function withoutEmptyLists(input: EventListInput): EventListInput {
  const empty = Object.keys(input).filter((name) => {
    const value = input[name as keyof EventListInput];
    return Array.isArray(value) && value.length === 0;
  });
  if (empty.length === 0) return input;
  const copy: Record<string, unknown> = { ...input };
  for (const name of empty) delete copy[name];
  return copy as unknown as EventListInput;
}

/** One page of events from the search index, as the caller may see them. */
export async function listEvents(services: Services, input: EventListInput, caller: Caller): Promise<ListResult> {
  input = withoutEmptyLists(input);
  const page = pageRequest(input.page, input.per_page);
  const near = geoFilterOf(input);
  const search = input.search?.trim() || undefined;
  const orderby = input.orderby ?? (search ? 'relevance' : 'start_date');
  if (orderby === 'distance' && !near)
    throw new ValidationError({ orderby: 'orderby=distance needs geoloc_lat and geoloc_lng' });
  const status = statusFilter(caller.principal, input.status);
  const [categoryIds, tagIds, venueIds, organizerIds] = await Promise.all([
    input.categories &&
      resolveTermRefs(services, 'category', input.categories, caller.lang, 'categories').then((ids) =>
        withDescendantCategories(services, ids),
      ),
    input.tags && resolveTermRefs(services, 'tag', input.tags, caller.lang, 'tags'),
    shownLinkIds(services, 'venue', input.venue, caller.principal),
    shownLinkIds(services, 'organizer', input.organizer, caller.principal),
    // Only a check, beside the lookups: a post_parent the caller may not read is a 400.
    input.post_parent ? requireEvent(services, input.post_parent, 'post_parent', caller.principal) : undefined,
  ]);
  const { request, distanceSortIndex } = buildEventSearch(aliasName(services.config, 'event', caller.lang), {
    dates: input.include ? [] : eventDateClauses(input, services.config.defaultTimezone),
    status,
    showHidden: seesHiddenEvents(caller.principal),
    shownLinks: shownLinksFilter(caller.principal),
    search,
    include: input.include,
    categoryIds,
    tagIds,
    venueIds,
    organizerIds,
    featured: input.featured,
    ticketed: input.ticketed,
    geoloc: input.geoloc,
    near,
    postParent: input.post_parent,
    orderby,
    order: input.order,
    from: page.from,
    size: page.size,
    // A named series is listed once (EXTENSIONS part 11).
    collapseSeries: input.hide_subsequent_recurrences === true || input.include !== undefined,
  });
  const response = await searchIndex<EventHit>(services, request);
  const items = response.hits.hits.map((hit) => {
    const source = hit._source as EventHit;
    let record = listedEventFor(source.record, source.password_protected === true, caller.principal);
    if (distanceSortIndex !== null) {
      const distance = Number(hit.sort?.[distanceSortIndex]);
      record = { ...record, distance: Number.isFinite(distance) ? Math.round(distance * 100) / 100 : null };
    }
    return record;
  });
  return {
    items: await withCurrentTermCounts(services, items, caller.lang),
    total: seriesCountOf(response) ?? totalOf(response),
    page,
  };
}
