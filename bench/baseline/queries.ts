import type { estypes } from '@elastic/elasticsearch';
import { SEARCH_BOOSTS } from '../../src/search/eventQuery';
import { fullTextQuery } from '../../src/search/fullText';

/**
 * The baseline's Elasticsearch requests: the same filters, full-text clauses, sort, page size and
 * `_source` as the API's list of events, written out once by hand but for the full-text clause,
 * which is the API's own (the floor the API is compared with). The bench checks they return the
 * same events as the API before measuring.
 */
const SOURCE = ['record', 'password_protected'];
const PAGE_SIZE = 6;

/** chai's global `should` breaks literal bool queries' types in this project (see src/search/fullText.ts). */
const bool = (clauses: Record<string, unknown>) => ({ bool: clauses }) as unknown as estypes.QueryDslQueryContainer;

const published: estypes.QueryDslQueryContainer[] = [
  { term: { status: 'publish' } },
  { term: { hide_from_listings: false } },
];
const chronological: estypes.SortCombinations[] = [{ start_utc: { order: 'asc' } }, { id: { order: 'asc' } }];

function localDay(date: Date, endOfDay: boolean): string {
  return `${date.toISOString().slice(0, 10)}T${endOfDay ? '23:59:59' : '00:00:00'}`;
}

/** The default window of a list: today to two years later, whole days in local time (site zone UTC). */
function defaultWindow(now: Date): estypes.QueryDslQueryContainer {
  const end = new Date(now);
  end.setUTCFullYear(end.getUTCFullYear() + 2);
  return { range: { start_local: { gte: localDay(now, false), lte: localDay(end, true) } } };
}

export function searchRequest(index: string, text: string, now = new Date()): estypes.SearchRequest {
  return {
    index,
    query: bool({
      filter: [...published, defaultWindow(now)],
      must: [fullTextQuery(text, 'title', SEARCH_BOOSTS)],
    }),
    sort: [{ _score: { order: 'desc' } }, ...chronological],
    size: PAGE_SIZE,
    track_total_hits: true,
    _source: SOURCE,
  };
}

export interface GeoParams {
  lat: number;
  lng: number;
  radius: number;
  unit: 'km' | 'mi';
  /** Days, YYYY-MM-DD, matched in the events' local time. */
  from: string;
  to: string;
  /** A category and its descendants. */
  categories: number[];
}

export function geoRequest(index: string, p: GeoParams): estypes.SearchRequest {
  const point = { lat: p.lat, lon: p.lng };
  return {
    index,
    query: bool({
      filter: [
        ...published,
        { range: { start_local: { gte: `${p.from}T00:00:00`, lte: `${p.to}T23:59:59` } } },
        { terms: { category_ids: p.categories } },
        // Anonymous callers do not see a protected event's location (the API skips them too).
        { term: { password_protected: false } },
        { geo_distance: { distance: `${p.radius}${p.unit}`, location: point } },
      ],
    }),
    sort: [
      {
        _geo_distance: { location: point, order: 'asc', unit: p.unit, distance_type: 'arc' },
      } as estypes.SortCombinations,
      ...chronological,
    ],
    size: PAGE_SIZE,
    track_total_hits: true,
    _source: SOURCE,
  };
}
