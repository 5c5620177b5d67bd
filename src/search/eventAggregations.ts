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
}

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

const filtered = (filter: Clause[], aggs: Aggregations): estypes.AggregationsAggregationContainer => ({
  filter: filter.length > 0 ? boolQuery({ filter }) : { match_all: {} },
  aggs,
});

/**
 * The aggregations of a list's facets, histogram and map tiles, computed in the list's own search:
 * each facet applies every filter but its own (the list applies them as a `post_filter`); the
 * histogram and the tiles apply them all. Venue, organizer and location counts leave out the
 * events that show the caller none (password-protected ones, CONTRACT part 6).
 */
export function discoveryAggregations(d: Discovery, scope: Scope): Aggregations {
  const aggs: Aggregations = {};
  const allFacetFilters = Object.values(scope.byFacet);
  const links = scope.shownLinks ? [scope.shownLinks] : [];
  for (const facet of d.facets) {
    const others = Object.entries(scope.byFacet)
      .filter(([name]) => name !== facet)
      .map(([, clause]) => clause);
    const hidesLinks = facet === 'venue' || facet === 'organizer';
    aggs[`facet_${facet}`] = filtered([...others, ...(hidesLinks ? links : [])], {
      values: { terms: { field: FACET_FIELDS[facet], size: FACET_CANDIDATES } },
    });
  }
  if (d.histogram) {
    aggs.histogram = filtered(allFacetFilters, {
      buckets: {
        date_histogram: {
          field: 'start_utc',
          calendar_interval: d.histogram.interval,
          time_zone: d.histogram.timeZone,
          min_doc_count: 1,
          format: HISTOGRAM_FORMAT,
        },
      },
    });
  }
  if (d.geoGrid !== undefined) {
    const b = scope.bounds;
    aggs.geo_grid = filtered([...allFacetFilters, ...links], {
      tiles: {
        geotile_grid: {
          field: 'location',
          precision: d.geoGrid,
          // Events with several venues would otherwise add tiles outside the box.
          ...(b
            ? { bounds: { top_left: { lat: b.top, lon: b.left }, bottom_right: { lat: b.bottom, lon: b.right } } }
            : {}),
        },
        aggs: { centroid: { geo_centroid: { field: 'location' } } },
      },
    });
  }
  return aggs;
}

interface Bucket {
  key: number | string;
  doc_count: number;
}

/** The raw buckets of each discovery aggregation of a search response. */
export function bucketsOf(
  response: { aggregations?: Record<string, unknown> },
  name: string,
  inner: string,
): (Bucket & Record<string, unknown>)[] {
  const agg = response.aggregations?.[name] as Record<string, { buckets?: unknown }> | undefined;
  return (agg?.[inner]?.buckets as (Bucket & Record<string, unknown>)[] | undefined) ?? [];
}
