import type { Language } from '../../../config';
import { DateTime } from 'luxon';
import type { estypes } from '@elastic/elasticsearch';
import { ValidationError } from '../../domain/errors';
import { seesHiddenEvents } from '../../domain/policy';
import { listedEventFor } from '../../storage/recordAccess';
import type { Principal } from '../../domain/principal';
import type { Services } from '../container';
import type { Status } from '../../domain/status';
import { eventDateClauses, type DateFilterInput } from '../../search/dateFilters';
import type { Discovery, FacetName, GeoBounds, HistogramInterval } from '../../search/eventAggregations';
import { discoveryResult } from './eventDiscovery';
import {
  buildEventSearch,
  nextOccurrencesOf,
  nextOccurrencesSearch,
  seriesCountOf,
  SERIES_WALK,
  withShownOccurrences,
  type DistanceUnit,
  type EventOrderBy,
  type EventQuery,
  type GeoFilter,
} from '../../search/eventQuery';
import { aliasName } from '../../search/indexNames';
import { totalOf, withoutWindow, type ListQuery } from './listing';
import { shownLinkIds, requireEvent, resolveTermRefs, withDescendantCategories } from '../commands/references';
import { currentTermCountsOf, withCurrentTermCounts } from './termCounts';
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
  /** top, left, bottom, right */
  geoloc_bounds?: number[];
  facets?: FacetName[];
  histogram?: HistogramInterval;
  tz?: string;
  geo_grid?: number;
}

export interface Caller {
  lang: Language;
  principal: Principal;
  /** The time relative filters (the default date window, `only_with_upcoming`) are taken at: a walk keeps its first page's. */
  now?: Date;
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

function isUnknownZone(err: unknown): boolean {
  const meta = (err as { meta?: { statusCode?: number; body?: unknown } }).meta;
  return meta?.statusCode === 400 && /time.?zone/i.test(JSON.stringify(meta.body ?? ''));
}

/** An empty list (`venue=`) filters nothing, as if not sent. */
function withoutEmptyLists(input: EventListInput): EventListInput {
  const kept = Object.entries(input).filter(([, value]) => !(Array.isArray(value) && value.length === 0));
  if (kept.length === Object.keys(input).length) return input;
  return Object.fromEntries(kept) as EventListInput;
}

function boundsOf(box: number[] | undefined): GeoBounds | undefined {
  if (!box) return undefined;
  const [top, left, bottom, right] = box as [number, number, number, number];
  return { top, left, bottom, right };
}

function discoveryOf(input: EventListInput, siteTimeZone: string): Discovery | undefined {
  const facets = input.facets ? [...new Set(input.facets)] : [];
  if (facets.length === 0 && !input.histogram && input.geo_grid === undefined) return undefined;
  return {
    facets,
    ...(input.histogram ? { histogram: { interval: input.histogram, timeZone: input.tz ?? siteTimeZone } } : {}),
    ...(input.geo_grid !== undefined ? { geoGrid: input.geo_grid } : {}),
  };
}

/** The hit's distance (geoloc_lat/lng), as the list shows it. */
function distanceOf(hit: estypes.SearchHit<unknown>, distanceSortIndex: number): number | null {
  const distance = Number(hit.sort?.[distanceSortIndex]);
  return Number.isFinite(distance) ? Math.round(distance * 100) / 100 : null;
}

/** Only what `tagPartsOf` reads of each hit. */
const TAG_SOURCE = ['record.categories.id', 'record.tags.id'];

/** The parts of a page's entity tag, from its hits (only their IDs, versions, sort and terms' IDs are read). */
async function tagPartsOf(
  services: Services,
  response: estypes.SearchResponse<unknown>,
  distanceSortIndex: number | null,
  lang: Language,
): Promise<unknown[]> {
  const hits = response.hits.hits;
  const records = hits.map((hit) => ((hit._source as EventHit | undefined)?.record ?? {}) as Record<string, unknown>);
  return [
    totalOf(response),
    hits.map((hit) => [hit._id, hit._version, distanceSortIndex === null ? null : distanceOf(hit, distanceSortIndex)]),
    await currentTermCountsOf(services, records, lang),
  ];
}

/** The search of an event list for the caller (CONTRACT part 7), ready to be paged or walked. */
export async function eventListQuery(
  services: Services,
  input: EventListInput,
  caller: Caller,
  scope: { series?: number } = {},
): Promise<ListQuery> {
  input = withoutEmptyLists(input);
  const near = geoFilterOf(input);
  const search = input.search?.trim() || undefined;
  const orderby = input.orderby ?? (search ? 'relevance' : 'start_date');
  if (orderby === 'distance' && !near)
    throw new ValidationError({ orderby: 'orderby=distance needs geoloc_lat and geoloc_lng' });
  const status = statusFilter(caller.principal, input.status);
  const discovery = discoveryOf(input, services.config.defaultTimezone);
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
  const now = caller.now ? DateTime.fromJSDate(caller.now) : undefined;
  const index = aliasName(services.config, 'event', caller.lang);
  const query: EventQuery = {
    dates: input.include ? [] : eventDateClauses(input, services.config.defaultTimezone, now),
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
    bounds: boundsOf(input.geoloc_bounds),
    postParent: input.post_parent,
    discovery,
    orderby,
    order: input.order,
    from: 0,
    size: 0,
    seriesId: scope.series,
  };
  // A series is listed once at its first match, or (named) as its next occurrence (EXTENSIONS part 11).
  const collapseSeries: EventQuery['collapseSeries'] =
    input.hide_subsequent_recurrences === true
      ? { entry: 'first' }
      : input.include !== undefined
        ? { entry: 'named' }
        : undefined;
  // Named first, from the snapshot a walk reads (ListQuery.prepare).
  const prepare: ListQuery['prepare'] = async (request, search) => {
    const at = caller.now ?? new Date();
    const named = await search(nextOccurrencesSearch(index, query, at, input.include?.length ?? 0));
    return withShownOccurrences(request, nextOccurrencesOf(named));
  };
  const { request, distanceSortIndex } = buildEventSearch(index, { ...query, collapseSeries });
  const present = async (hits: estypes.SearchHit<unknown>[]) => {
    const items = hits.map((hit) => {
      const source = hit._source as EventHit;
      const record = listedEventFor(source.record, source.password_protected === true, caller.principal);
      return distanceSortIndex === null ? record : { ...record, distance: distanceOf(hit, distanceSortIndex) };
    });
    return withCurrentTermCounts(services, items, caller.lang);
  };
  return {
    request: { ...withoutWindow(request), version: true },
    present,
    total: (response) => seriesCountOf(response) ?? totalOf(response),
    ...(collapseSeries?.entry === 'first' ? { seriesWalk: SERIES_WALK } : {}),
    ...(collapseSeries?.entry === 'named' ? { prepare } : {}),
    revalidation: {
      source: TAG_SOURCE,
      tagParts: (response) => tagPartsOf(services, response, distanceSortIndex, caller.lang),
    },
    ...(discovery
      ? {
          extras: (response) => discoveryResult(services, discovery, response, caller.lang, caller.principal),
          refine: (err) =>
            // A zone this Node knows but Elasticsearch's Java does not (a tz release apart).
            discovery.histogram && isUnknownZone(err)
              ? new ValidationError({
                  tz: `The search index does not know the time zone ${discovery.histogram.timeZone}.`,
                })
              : err,
        }
      : {}),
  };
}
