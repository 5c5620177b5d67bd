import type { estypes } from '@elastic/elasticsearch';
import type { Language } from '../../../config';
import { ValidationError } from '../../domain/errors';
import { seesHiddenEvents } from '../../domain/policy';
import { listedEventFor } from '../../storage/recordAccess';
import type { Principal } from '../../domain/principal';
import type { Services } from '../container';
import type { Status } from '../../domain/status';
import { eventDateClauses, type DateFilterInput } from '../../search/dateFilters';
import type { Discovery, FacetName, GeoBounds, HistogramInterval } from '../../search/eventAggregations';
import { discoveryResult, type DiscoveryResult } from './eventDiscovery';
import { buildEventSearch, type DistanceUnit, type EventOrderBy, type GeoFilter } from '../../search/eventQuery';
import { aliasName } from '../../search/indexNames';
import { pageRequest, searchIndex, totalOf, type PageRequest } from './listing';
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
}

export interface ListResult {
  items: Record<string, unknown>[];
  total: number;
  page: PageRequest;
  /** Facets, histogram and map tiles asked for (EXTENSIONS part 14). */
  extras?: DiscoveryResult;
  /** What the page shows, for its entity tag: total, each hit's ID, version and distance, term counts. */
  tagParts?: unknown[];
}

/**
 * Asked, before a list is fetched whole, with the `tagParts` of the page as it stands: true when
 * the client's copy is current (the list then answers 304 and `listEvents` returns null).
 */
export type ListProbe = (tagParts: unknown[]) => boolean;

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

/** The search of the events `input` asks for: one page, or `size` matches from the first for a feed. */
export async function eventSearch(
  services: Services,
  input: EventListInput,
  caller: Caller,
  window?: { size: number },
): Promise<{
  request: estypes.SearchRequest;
  distanceSortIndex: number | null;
  page: PageRequest;
  discovery: Discovery | undefined;
}> {
  input = withoutEmptyLists(input);
  const page = pageRequest(input.page, input.per_page);
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
    bounds: boundsOf(input.geoloc_bounds),
    postParent: input.post_parent,
    discovery,
    orderby,
    order: input.order,
    from: window ? 0 : page.from,
    size: window ? window.size : page.size,
  });
  return { request: { ...request, version: true }, distanceSortIndex, page, discovery };
}

type Hit = estypes.SearchHit<EventHit>;

/** The hit's distance (geoloc_lat/lng), as the list shows it. */
function distanceOf(hit: Hit, distanceSortIndex: number | null): number | null | undefined {
  if (distanceSortIndex === null) return undefined;
  const distance = Number(hit.sort?.[distanceSortIndex]);
  return Number.isFinite(distance) ? Math.round(distance * 100) / 100 : null;
}

/** The parts of a page's entity tag, from its hits (only their IDs, versions, sort and terms' IDs are read). */
async function tagPartsOf(
  services: Services,
  response: estypes.SearchResponse<EventHit>,
  distanceSortIndex: number | null,
  lang: Language,
): Promise<unknown[]> {
  const hits = response.hits.hits;
  const records = hits.map((hit) => (hit._source?.record ?? {}) as Record<string, unknown>);
  return [
    totalOf(response),
    hits.map((hit) => [hit._id, hit._version, distanceOf(hit, distanceSortIndex)]),
    await currentTermCountsOf(services, records, lang),
  ];
}

/** Only what `tagPartsOf` reads of each hit. */
const TAG_SOURCE = ['record.categories.id', 'record.tags.id'];

/** The search, with a zone this Node knows but Elasticsearch's Java does not (a tz release apart) a 400. */
function searchEvents(services: Services, request: estypes.SearchRequest, discovery: Discovery | undefined) {
  return searchIndex<EventHit>(services, request).catch((err: unknown) => {
    if (discovery?.histogram && isUnknownZone(err))
      throw new ValidationError({
        tz: `The search index does not know the time zone ${discovery.histogram.timeZone}.`,
      });
    throw err;
  });
}

/**
 * One page of events from the search index, as the caller may see them. With `probe` (a
 * revalidation), the page's hits are first fetched without their records: when the client's
 * copy is current, that is all (null). A page with facets, histogram or tiles is tagged by them
 * too (they count events beyond the page), so it is revalidated from the whole answer.
 */
export async function listEvents(
  services: Services,
  input: EventListInput,
  caller: Caller,
  probe?: ListProbe,
): Promise<ListResult | null> {
  const { request, distanceSortIndex, page, discovery } = await eventSearch(services, input, caller);
  if (probe && !discovery) {
    const light = await searchEvents(services, { ...request, _source: TAG_SOURCE }, discovery);
    // A page past the last one is a 404, which only the whole answer makes.
    const exists = page.page === 1 || light.hits.hits.length > 0;
    if (exists && probe(await tagPartsOf(services, light, distanceSortIndex, caller.lang))) return null;
  }
  const response = await searchEvents(services, request, discovery);
  const items = response.hits.hits.map((hit) => {
    const source = hit._source as EventHit;
    const record = listedEventFor(source.record, source.password_protected === true, caller.principal);
    return distanceSortIndex === null ? record : { ...record, distance: distanceOf(hit, distanceSortIndex) };
  });
  const [listed, extras, tagParts] = await Promise.all([
    withCurrentTermCounts(services, items, caller.lang),
    discovery && discoveryResult(services, discovery, response, caller.lang, caller.principal),
    tagPartsOf(services, response, distanceSortIndex, caller.lang),
  ]);
  return {
    items: listed,
    total: totalOf(response),
    page,
    tagParts: extras ? [...tagParts, extras] : tagParts,
    ...(extras ? { extras } : {}),
  };
}
