import type { estypes } from '@elastic/elasticsearch';
import type { DateClause } from './dateFilters';
import { boolQuery, fullTextQuery } from './fullText';

export type EventOrderBy = 'start_date' | 'title' | 'modified' | 'relevance' | 'distance';
export type DistanceUnit = 'mi' | 'km';

export interface GeoFilter {
  lat: number;
  lng: number;
  radius: number;
  unit: DistanceUnit;
}

/** Everything an event list filters, sorts and pages by, resolved (IDs, not slugs). */
export interface EventQuery {
  dates: DateClause[];
  status: estypes.QueryDslQueryContainer;
  /** Editors see events hidden from listings. */
  showHidden: boolean;
  /** Events whose links and location may be matched (venue, organizer, geo); none: all. */
  shownLinks?: estypes.QueryDslQueryContainer | null;
  search?: string;
  include?: number[];
  categoryIds?: number[];
  tagIds?: number[];
  venueIds?: number[];
  organizerIds?: number[];
  featured?: boolean;
  ticketed?: boolean;
  geoloc?: boolean;
  near?: GeoFilter;
  postParent?: number;
  orderby: EventOrderBy;
  order?: 'asc' | 'desc';
  from: number;
  size: number;
  /** One entry per series (its first hit in sort order); `total` then counts series. */
  collapseSeries?: boolean;
}

export interface BuiltSearch {
  request: estypes.SearchRequest;
  /** Position of the distance among each hit's sort values, when a geo point was given. */
  distanceSortIndex: number | null;
}

/** Fields full-text search matches, with their weights (the bench's baseline sends the same). */
export const SEARCH_BOOSTS = [
  'title^3',
  'category_names^1.5',
  'tag_names^1.5',
  'venue_names',
  'organizer_names',
  'excerpt',
  'description',
];

function filters(q: EventQuery): estypes.QueryDslQueryContainer[] {
  const filter: estypes.QueryDslQueryContainer[] = [q.status];
  // `include` names events explicitly: hidden ones are shown (CONTRACT part 6).
  if (!q.showHidden && !q.include) filter.push({ term: { hide_from_listings: false } });
  for (const { field, op, value } of q.dates) filter.push({ range: { [field]: { [op]: value } } });
  const anyOf = (field: string, values: unknown[] | undefined) => {
    if (values) filter.push({ terms: { [field]: values } });
  };
  anyOf('id', q.include);
  anyOf('category_ids', q.categoryIds);
  anyOf('tag_ids', q.tagIds);
  anyOf('venue_ids', q.venueIds);
  anyOf('organizer_ids', q.organizerIds);
  const flag = (field: string, value: boolean | undefined) => {
    if (value !== undefined) filter.push({ term: { [field]: value } });
  };
  flag('featured', q.featured);
  flag('ticketed', q.ticketed);
  flag('has_location', q.geoloc);
  if (q.postParent !== undefined) filter.push({ term: { post_parent: q.postParent } });
  const matchesLinks = q.venueIds || q.organizerIds || q.geoloc !== undefined || q.near;
  if (matchesLinks && q.shownLinks) filter.push(q.shownLinks);
  if (q.near) {
    filter.push({
      geo_distance: { distance: `${q.near.radius}${q.near.unit}`, location: { lat: q.near.lat, lon: q.near.lng } },
    });
  }
  return filter;
}

function distanceSort(near: GeoFilter, order: 'asc' | 'desc'): estypes.SortCombinations {
  return {
    // `mode: min`: an event with several venues is as far as its nearest, in either order
    // (Elasticsearch takes the farthest for a descending sort otherwise).
    _geo_distance: {
      location: { lat: near.lat, lon: near.lng },
      order,
      mode: 'min',
      unit: near.unit,
      distance_type: 'arc',
    },
  } as estypes.SortCombinations;
}

function sortOf(q: EventQuery): { sort: estypes.SortCombinations[]; distanceSortIndex: number | null } {
  const order = q.order ?? (q.orderby === 'relevance' ? 'desc' : 'asc');
  const chronological: estypes.SortCombinations[] = [{ start_utc: { order: 'asc' } }, { id: { order: 'asc' } }];
  let sort: estypes.SortCombinations[];
  switch (q.orderby) {
    case 'start_date':
      sort = [{ start_utc: { order } }, { id: { order } }];
      break;
    case 'title':
      sort = [{ 'title.sort': { order } }, ...chronological];
      break;
    case 'modified':
      sort = [{ modified: { order } }, { id: { order } }];
      break;
    case 'relevance':
      sort = [{ _score: { order } }, ...chronological];
      break;
    case 'distance':
      sort = [distanceSort(q.near as GeoFilter, order), ...chronological];
      return { sort, distanceSortIndex: 0 };
  }
  if (!q.near) return { sort, distanceSortIndex: null };
  return { sort: [...sort, distanceSort(q.near, 'asc')], distanceSortIndex: sort.length };
}

/** Below this many series, the cardinality count of a collapsed list is exact. */
const EXACT_SERIES_COUNT = 40_000;

/** A list collapsed to one entry per series, with the number of series as `series` (aggregation). */
const SERIES_COLLAPSE = {
  collapse: { field: 'series_id' },
  aggs: { series: { cardinality: { field: 'series_id', precision_threshold: EXACT_SERIES_COUNT } } },
};

/** The entries of a list collapsed per series (SERIES_COLLAPSE), else null. */
export function seriesCountOf(response: estypes.SearchResponse<unknown>): number | null {
  const series = response.aggregations?.series as estypes.AggregationsCardinalityAggregate | undefined;
  return series ? series.value : null;
}

/** The Elasticsearch search of an event list page (CONTRACT part 7). */
export function buildEventSearch(index: string, q: EventQuery): BuiltSearch {
  const { sort, distanceSortIndex } = sortOf(q);
  const query = boolQuery({
    filter: filters(q),
    ...(q.search ? { must: [fullTextQuery(q.search, 'title', SEARCH_BOOSTS)] } : {}),
  });
  return {
    request: {
      index,
      query,
      sort,
      from: q.from,
      size: q.size,
      track_total_hits: true,
      _source: ['record', 'password_protected'],
      ...(q.collapseSeries ? SERIES_COLLAPSE : {}),
    },
    distanceSortIndex,
  };
}
