import type { estypes } from '@elastic/elasticsearch';
import type { DateClause } from './dateFilters';
import {
  discoveryAggregations,
  EXACT_SERIES_COUNT,
  listedAggregate,
  type Discovery,
  type FacetName,
  type GeoBounds,
} from './eventAggregations';
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
  bounds?: GeoBounds;
  postParent?: number;
  /** Facets, histogram and map tiles to compute over the matches (EXTENSIONS part 14). */
  discovery?: Discovery;
  orderby: EventOrderBy;
  order?: 'asc' | 'desc';
  from: number;
  size: number;
  /**
   * One entry per series; `total` then counts series. `first`: the series' first match in the
   * list's order (a collapse); `named`: the occurrences withShownOccurrences names (a list of
   * named events), sorted as the list is.
   */
  collapseSeries?: { entry: 'first' } | { entry: 'named' };
  /** Only the occurrences of this series (a single event: itself). */
  seriesId?: number;
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

type Clause = estypes.QueryDslQueryContainer;

/**
 * The filters of a list, split in two: `base` applies to everything, `byFacet` holds the filters a
 * facet may leave out of its own counts (disjunctive facets, EXTENSIONS part 14).
 */
interface ListFilters {
  base: Clause[];
  byFacet: Partial<Record<FacetName, Clause>>;
}

function listFilters(q: EventQuery): ListFilters {
  const base: Clause[] = [q.status];
  // `include` and a series' occurrences name events explicitly: hidden ones are shown (CONTRACT part 6).
  const named = q.include !== undefined || q.seriesId !== undefined;
  if (!q.showHidden && !named) base.push({ term: { hide_from_listings: false } });
  if (q.seriesId !== undefined) base.push({ term: { series_id: q.seriesId } });
  for (const { field, op, value } of q.dates) base.push({ range: { [field]: { [op]: value } } });
  if (q.include) base.push({ terms: { id: q.include } });
  if (q.geoloc !== undefined) base.push({ term: { has_location: q.geoloc } });
  if (q.postParent !== undefined) base.push({ term: { post_parent: q.postParent } });
  const byFacet: ListFilters['byFacet'] = {};
  const anyOf = (facet: FacetName, field: string, values: number[] | undefined, links = false) => {
    if (!values) return;
    const clause: Clause = { terms: { [field]: values } };
    // A protected event's venue and organizer are blanked for most callers: never matched either.
    byFacet[facet] = links && q.shownLinks ? boolQuery({ filter: [clause, q.shownLinks] }) : clause;
  };
  anyOf('categories', 'category_ids', q.categoryIds);
  anyOf('tags', 'tag_ids', q.tagIds);
  anyOf('venue', 'venue_ids', q.venueIds, true);
  anyOf('organizer', 'organizer_ids', q.organizerIds, true);
  if (q.featured !== undefined) byFacet.featured = { term: { featured: q.featured } };
  if (q.ticketed !== undefined) byFacet.ticketed = { term: { ticketed: q.ticketed } };
  const matchesLocation = q.geoloc !== undefined || q.near || q.bounds;
  if (matchesLocation && q.shownLinks) base.push(q.shownLinks);
  if (q.near) {
    base.push({
      geo_distance: { distance: `${q.near.radius}${q.near.unit}`, location: { lat: q.near.lat, lon: q.near.lng } },
    });
  }
  if (q.bounds) base.push(boundingBox(q.bounds));
  return { base, byFacet };
}

/** Elasticsearch reads a box whose left edge lies east of its right one as crossing the antimeridian. */
function boundingBox(b: GeoBounds): Clause {
  return {
    geo_bounding_box: {
      location: { top_left: { lat: b.top, lon: b.left }, bottom_right: { lat: b.bottom, lon: b.right } },
    },
  };
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
      // A series' occurrences share `modified` and `id`: they come in the order of their dates.
      sort = [{ modified: { order } }, { id: { order } }, { start_utc: { order: 'asc' } }];
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

/** Upcoming occurrences first, soonest first; then past ones, latest first. */
function nextOccurrenceFirst(now: Date): estypes.SortCombinations {
  return {
    _script: {
      type: 'number',
      order: 'asc',
      script: {
        lang: 'painless',
        source:
          "long start = doc['start_utc'].value.toInstant().toEpochMilli();" +
          "return doc['end_utc'].value.toInstant().toEpochMilli() >= params.now ? start : params.past - start;",
        params: { now: now.getTime(), past: 4e14 },
      },
    },
  };
}

const NEXT = 'next';

/**
 * The search naming each series' next occurrence at `now` (its last when all are past) among
 * the matches of `q`, a list of named events (`include`, at most `limit` series): its IDs
 * (nextOccurrencesOf) are what the list shows (withShownOccurrences), sorted as any list. An
 * aggregation, not a collapse: a collapse's inner hits are read outside a walk's snapshot.
 */
export function nextOccurrencesSearch(index: string, q: EventQuery, now: Date, limit: number): estypes.SearchRequest {
  const { request } = buildEventSearch(index, { ...q, discovery: undefined, collapseSeries: undefined });
  return {
    index: request.index,
    query: request.query,
    size: 0,
    track_total_hits: false,
    aggs: {
      [NEXT]: {
        terms: { field: 'series_id', size: Math.max(1, limit) },
        aggs: { [NEXT]: { top_hits: { size: 1, sort: [nextOccurrenceFirst(now)], _source: false } } },
      },
    },
  };
}

/** The occurrence IDs named by the answer to nextOccurrencesSearch. */
export function nextOccurrencesOf(response: estypes.SearchResponse<unknown>): string[] {
  type Bucket = Record<typeof NEXT, { hits: { hits: { _id: string }[] } }>;
  const buckets = (response.aggregations?.[NEXT] as { buckets?: Bucket[] } | undefined)?.buckets ?? [];
  return buckets.flatMap((bucket) => bucket[NEXT].hits.hits.map((hit) => hit._id));
}

/**
 * A list of named events (`collapseSeries.entry` `named`) showing the occurrences `ids`: they are
 * a post filter, so its aggregations still count each series where it has matches.
 */
export function withShownOccurrences(request: estypes.SearchRequest, ids: string[]): estypes.SearchRequest {
  const shown: Clause = { ids: { values: ids } };
  return { ...request, post_filter: request.post_filter ? boolQuery({ filter: [request.post_filter, shown] }) : shown };
}

/** The aggregation counting the series of a list collapsed to one entry per series. */
const SERIES_COUNT = 'series_count';

/** The entries of a list collapsed per series (`collapseSeries`), else null. */
export function seriesCountOf(response: estypes.SearchResponse<unknown>): number | null {
  const count = listedAggregate(response, SERIES_COUNT) as estypes.AggregationsCardinalityAggregate | undefined;
  return count ? count.value : null;
}

/**
 * How a cursor walks a list collapsed per series (`hide_subsequent_recurrences`), which
 * Elasticsearch pages by number only: it scans the list's occurrences in order without their
 * records, keeps each series' entry (named by `entries` from the same snapshot: the series' first
 * match in the list's order, as the collapse chooses it), and fetches the entries' records
 * (`records`). Each takes the list's search.
 */
export interface SeriesWalk {
  /** The search without collapsing, records or window: each hit's series only (seriesOf). */
  scan(request: estypes.SearchRequest): estypes.SearchRequest;
  /** The series of a hit of `scan`. */
  seriesOf(hit: estypes.SearchHit<unknown>): number;
  /** The search naming, among `seriesIds`, each series' entry (entriesOf). */
  entries(request: estypes.SearchRequest, seriesIds: number[]): estypes.SearchRequest;
  /** Each series' entry (an occurrence's index ID), from the answer to `entries`. */
  entriesOf(response: estypes.SearchResponse<unknown>): Map<number, string>;
  /** The search of the occurrences `ids` with their records. */
  records(request: estypes.SearchRequest, ids: string[]): estypes.SearchRequest;
}

const ENTRIES = 'entries';

/** Each series' entry (an occurrence's index ID), from the answer to `SeriesWalk.entries`. */
function entriesOf(response: estypes.SearchResponse<unknown>): Map<number, string> {
  type Bucket = { key: number; entry: { hits: { hits: { _id: string }[] } } };
  const buckets = (response.aggregations?.[ENTRIES] as { buckets?: Bucket[] } | undefined)?.buckets ?? [];
  const entries = new Map<number, string>();
  for (const bucket of buckets) {
    const entry = bucket.entry.hits.hits[0]?._id;
    if (entry !== undefined) entries.set(bucket.key, entry);
  }
  return entries;
}

/** The walk of a list collapsed per series. */
export const SERIES_WALK: SeriesWalk = {
  scan: ({ collapse: _collapse, ...request }) => ({ ...request, _source: false, docvalue_fields: ['series_id'] }),
  seriesOf: (hit) => (hit.fields?.series_id as number[])[0]!,
  entries: (request, seriesIds) => ({
    // Scored as the list is (filters add nothing), so that a relevance order chooses the same entry.
    query: boolQuery({
      must: [request.query ?? { match_all: {} }],
      filter: [...(request.post_filter ? [request.post_filter] : []), { terms: { series_id: seriesIds } }],
    }),
    size: 0,
    track_total_hits: false,
    aggs: {
      [ENTRIES]: {
        terms: { field: 'series_id', size: seriesIds.length },
        aggs: { entry: { top_hits: { size: 1, sort: request.sort, _source: false } } },
      },
    },
  }),
  entriesOf,
  records: (request, ids) => ({
    query: { ids: { values: ids } },
    size: ids.length,
    track_total_hits: false,
    version: true,
    _source: request._source,
  }),
};

/** The Elasticsearch search of an event list page (CONTRACT part 7). */
export function buildEventSearch(index: string, q: EventQuery): BuiltSearch {
  const { sort, distanceSortIndex } = sortOf(q);
  const { base, byFacet } = listFilters(q);
  const facetFilters = Object.values(byFacet);
  // With facets, the filters they leave out of their own counts apply after the aggregations.
  const disjunctive = Boolean(q.discovery?.facets.length) && facetFilters.length > 0;
  const query = boolQuery({
    filter: disjunctive ? base : [...base, ...facetFilters],
    ...(q.search ? { must: [fullTextQuery(q.search, 'title', SEARCH_BOOSTS)] } : {}),
  });
  const request: estypes.SearchRequest = {
    index,
    query,
    sort,
    from: q.from,
    size: q.size,
    track_total_hits: true,
    _source: ['record', 'password_protected'],
  };
  if (disjunctive) request.post_filter = boolQuery({ filter: facetFilters });
  // The series counted are those the page lists: with facets, past the post filter.
  const seriesCount: Record<string, estypes.AggregationsAggregationContainer> =
    q.collapseSeries?.entry === 'first'
      ? { [SERIES_COUNT]: { cardinality: { field: 'series_id', precision_threshold: EXACT_SERIES_COUNT } } }
      : {};
  const scope = { byFacet: disjunctive ? byFacet : {}, shownLinks: q.shownLinks ?? null, bounds: q.bounds };
  const aggs = q.discovery
    ? discoveryAggregations({ ...q.discovery, countSeries: Boolean(q.collapseSeries) }, scope, seriesCount)
    : seriesCount;
  if (Object.keys(aggs).length > 0) request.aggs = aggs;
  // Elasticsearch keeps only size-0 answers unless asked: a discovery page (the same request until
  // a day's bounds move) is answered from its shard request cache until the next refresh that
  // changed the shard, exactly as a fresh search would answer.
  if (q.discovery) request.request_cache = true;
  if (q.collapseSeries?.entry === 'first') request.collapse = { field: 'series_id' };
  return { request, distanceSortIndex };
}
