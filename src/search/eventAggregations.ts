import type { estypes } from '@elastic/elasticsearch';
import { boolQuery } from './fullText';

/** The facets of `GET /events` (EXTENSIONS part 14), in the order the documentation lists them. */
export const FACETS = ['categories', 'tags', 'venue', 'organizer', 'featured', 'ticketed'] as const;
export type FacetName = (typeof FACETS)[number];
export type LinkFacet = 'categories' | 'tags' | 'venue' | 'organizer';
export type FlagFacet = 'featured' | 'ticketed';

export const HISTOGRAM_INTERVALS = ['day', 'week', 'month'] as const;
export type HistogramInterval = (typeof HISTOGRAM_INTERVALS)[number];

/** Map tile zoom levels Elasticsearch's geotile_grid accepts. */
export const MAX_GEO_GRID_ZOOM = 29;

/** Facet entries an answer holds per facet. */
export const FACET_SIZE = 50;
/**
 * Buckets read per facet before the caller's visibility and the order by name are applied: ties
 * at the 50th count are broken by name among this many, and hidden venues cannot crowd out shown ones.
 */
const FACET_CANDIDATES = 200;

/** `start` of a histogram bucket: the local date and time its period begins, as the API writes dates. */
const HISTOGRAM_FORMAT = 'yyyy-MM-dd HH:mm:ss';

export interface GeoBounds {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export interface Discovery {
  facets: FacetName[];
  histogram?: { interval: HistogramInterval; timeZone: string };
  geoGrid?: number;
  /**
   * Whether buckets count series rather than occurrences: on a list showing each series once
   * (`hide_subsequent_recurrences`, `include`), a series with matches in a bucket counts once there.
   */
  countSeries?: boolean;
}

/** Below this many series, a cardinality count of them is exact. */
export const EXACT_SERIES_COUNT = 40_000;

/** The sub-aggregation counting the series of a bucket, when buckets count series. */
const SERIES = 'series';
const seriesInBucket: Aggregations = {
  [SERIES]: { cardinality: { field: 'series_id', precision_threshold: EXACT_SERIES_COUNT } },
};

const FACET_FIELDS: Record<FacetName, string> = {
  categories: 'category_ids',
  tags: 'tag_ids',
  venue: 'venue_ids',
  organizer: 'organizer_ids',
  featured: 'featured',
  ticketed: 'ticketed',
};

type Clause = estypes.QueryDslQueryContainer;
type Aggregations = Record<string, estypes.AggregationsAggregationContainer>;

interface Scope {
  /** Filters facets leave out of their own counts (empty when the query applies them all). */
  byFacet: Partial<Record<FacetName, Clause>>;
  /** Events whose venue, organizer and location the caller may see; null: all. */
  shownLinks: Clause | null;
  bounds?: GeoBounds;
}

/** The aggregation holding the discovery aggregations that apply every filter of the list. */
const LISTED = 'listed';

/** `aggs` under a filter aggregation of `filter`, or `aggs` themselves when there is nothing to filter. */
function filtered(filter: Clause[], name: string, agg: estypes.AggregationsAggregationContainer): Aggregations {
  if (filter.length === 0) return { [name]: agg };
  return { [name]: { filter: filter.length === 1 ? filter[0]! : boolQuery({ filter }), aggs: { [name]: agg } } };
}

/**
 * The aggregations of a list's facets, histogram and map tiles, computed in the list's own search.
 * The list applies its facet filters as a `post_filter`, so the aggregations see the matches of
 * its other filters only: a facet whose own filter is applied gets a filter aggregation of the
 * others (disjunctive facets); everything else (the other facets, the histogram, the tiles and
 * `alsoListed`, the caller's own) counts exactly the listed matches, under one filter aggregation
 * of them all (`listed`: the filters are evaluated once, not once per aggregation), or under the
 * query itself when no facet filter applies. Venue, organizer and location counts leave out the
 * events that show the caller none (password-protected ones, CONTRACT part 6).
 */
export function discoveryAggregations(d: Discovery, scope: Scope, alsoListed: Aggregations = {}): Aggregations {
  const own: Aggregations = {};
  let listed: Aggregations = { ...alsoListed };
  const links = scope.shownLinks ? [scope.shownLinks] : [];
  for (const facet of d.facets) {
    const hidesLinks = facet === 'venue' || facet === 'organizer' ? links : [];
    const terms: estypes.AggregationsAggregationContainer = {
      terms: {
        field: FACET_FIELDS[facet],
        size: FACET_CANDIDATES,
        ...(d.countSeries ? { order: [{ [SERIES]: 'desc' as const }, { _key: 'asc' as const }] } : {}),
      },
      ...(d.countSeries ? { aggs: seriesInBucket } : {}),
    };
    if (scope.byFacet[facet] === undefined) {
      Object.assign(listed, filtered(hidesLinks, `facet_${facet}`, terms));
      continue;
    }
    const others = Object.entries(scope.byFacet)
      .filter(([name]) => name !== facet)
      .map(([, clause]) => clause);
    Object.assign(own, filtered([...others, ...hidesLinks], `facet_${facet}`, terms));
  }
  if (d.histogram) {
    listed.histogram = {
      date_histogram: {
        field: 'start_utc',
        calendar_interval: d.histogram.interval,
        time_zone: d.histogram.timeZone,
        min_doc_count: 1,
        format: HISTOGRAM_FORMAT,
      },
      ...(d.countSeries ? { aggs: seriesInBucket } : {}),
    };
  }
  if (d.geoGrid !== undefined) {
    const b = scope.bounds;
    const tiles: estypes.AggregationsAggregationContainer = {
      geotile_grid: {
        field: 'location',
        precision: d.geoGrid,
        // Events with several venues would otherwise add tiles outside the box.
        ...(b
          ? { bounds: { top_left: { lat: b.top, lon: b.left }, bottom_right: { lat: b.bottom, lon: b.right } } }
          : {}),
      },
      aggs: { centroid: { geo_centroid: { field: 'location' } }, ...(d.countSeries ? seriesInBucket : {}) },
    };
    Object.assign(listed, filtered(links, 'geo_grid', tiles));
  }
  const allFacetFilters = Object.values(scope.byFacet);
  if (allFacetFilters.length > 0 && Object.keys(listed).length > 0) {
    listed = { [LISTED]: { filter: boolQuery({ filter: allFacetFilters }), aggs: listed } };
  }
  return { ...own, ...listed };
}

interface Bucket {
  key: number | string;
  doc_count: number;
}

/** The result of the aggregation `name` of `discoveryAggregations`, wherever it was put. */
export function listedAggregate(
  response: { aggregations?: Record<string, unknown> },
  name: string,
): Record<string, unknown> | undefined {
  type Node = Record<string, unknown>;
  const aggregations = response.aggregations as Record<string, Node> | undefined;
  const node = (aggregations?.[LISTED]?.[name] ?? aggregations?.[name]) as Node | undefined;
  // A filter aggregation holds the aggregation of the same name.
  return (node?.[name] as Node | undefined) ?? node;
}

/** The buckets of the discovery aggregation `name` of a search response. */
export function bucketsOf(
  response: { aggregations?: Record<string, unknown> },
  name: string,
): (Bucket & Record<string, unknown>)[] {
  return (listedAggregate(response, name)?.buckets as (Bucket & Record<string, unknown>)[] | undefined) ?? [];
}

/**
 * What a bucket counts: its series when buckets count series, else its documents. Read, not
 * copied into each bucket: spreading hundreds of parsed buckets a page cost a millisecond.
 */
export const bucketCount = (bucket: Bucket & Record<string, unknown>): number =>
  (bucket[SERIES] as { value?: number } | undefined)?.value ?? bucket.doc_count;
