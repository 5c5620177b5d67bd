import type { estypes } from '@elastic/elasticsearch';
import { listedEventFor } from '../../storage/recordAccess';
import type { Services } from '../container';
import { eventListQuery, type Caller, type EventListInput } from './eventList';
import { boolQuery } from '../../search/fullText';
import { searchIndex, totalOf } from './listing';

/** At most this many events in a feed (EXTENSIONS part 12). */
export const FEED_MAX_ENTRIES = 1000;
/**
 * Records not kept as text are fetched, and the feed written, this many at a time: four searches
 * for a full feed, each page a few hundred kilobytes of records.
 */
export const FEED_PAGE_SIZE = 250;

interface FeedHit {
  record: Record<string, unknown>;
  password_protected?: boolean;
  recurrence_id?: string;
}

/** The number of events and series a feed's search matched. */
const FEED_COUNT = 'feed_events';

/**
 * One event of a feed: its record as lists show it to the caller, and its version (the index's).
 * A series comes once, as the record of its first matching occurrence with `series` set: the feed
 * writes it from the database (its rule and changed occurrences).
 */
export interface FeedRecord {
  record: Record<string, unknown>;
  version: number;
  series?: boolean;
}

/** One match of a feed's search, before its record is fetched. */
export interface FeedMatch {
  id: string;
  /** The concrete index that answered (a reindex starts versions over in a new one). */
  index: string;
  version: number;
  series: boolean;
}

/** The matches of a feed, known before any record is fetched. */
export interface FeedPlan {
  /** `[id, version]` of each match, in list order: what the feed's entity tag is made of. */
  matches: [string, number][];
  /** The same matches with the index that answered and whether each is a series. */
  hits: FeedMatch[];
  /** Every match, also past the first FEED_MAX_ENTRIES. */
  total: number;
  /** The time zones of the timed matches (their VTIMEZONEs come before the events). */
  zones: string[];
  /**
   * The records of `ids` (at most FEED_PAGE_SIZE, of `hits`) by ID, in one search with the list's
   * filters again: a record that stopped matching since the plan is missing.
   */
  records(ids: string[]): Promise<Map<string, FeedRecord>>;
}

const linked = (field: string, own: string[]) => [...own, 'status', 'author'].map((name) => `record.${field}.${name}`);
/** What a VEVENT shows of a listed event (src/domain/icalendar.ts), and what access to its links needs. */
const FEED_SOURCE = [
  ...['id', 'title', 'description', 'url', 'modified_utc', 'status', 'author', 'all_day', 'timezone'].map(
    (name) => `record.${name}`,
  ),
  ...['start_date', 'end_date', 'utc_start_date', 'utc_end_date'].map((name) => `record.${name}`),
  ...linked('venue', ['venue', 'address', 'city', 'stateprovince', 'zip', 'country', 'geo_lat', 'geo_lng']),
  ...linked('organizer', ['organizer', 'email']),
  'record.categories.name',
  'record.tags.name',
  'password_protected',
];

/** Password-protected events are left out of feeds, not blanked as lists blank them. */
const unprotected = (query: estypes.QueryDslQueryContainer | undefined): estypes.QueryDslQueryContainer =>
  boolQuery({ must: query ? [query] : [], must_not: [{ term: { password_protected: true } }] });

/**
 * The events `GET /events` would list for `input` (the caller should be anonymous: feeds are),
 * up to FEED_MAX_ENTRIES from the first, for a feed: one search for their IDs, versions and zones,
 * then the records the feed asks for, a page at a time, so a feed never holds more than one page
 * of them. A record that stopped matching between the two (unpublished, say) is left out, never shown.
 */
export async function planEventFeed(services: Services, input: EventListInput, caller: Caller): Promise<FeedPlan> {
  // A feed shows no facets, histogram or tiles: without them the facet filters are the query's
  // (not a post filter after the aggregations), so the count below is of the feed.
  const { facets: _facets, histogram: _histogram, geo_grid: _tiles, ...listed } = input;
  const { request: sorted } = await eventListQuery(services, listed, caller);
  // A series once, whatever the list's own collapsing (EXTENSIONS part 12).
  const request = { ...sorted, from: 0, size: FEED_MAX_ENTRIES, collapse: { field: 'series_id' } };
  const query = unprotected(request.query);
  const found = await searchIndex<FeedHit>(services, {
    ...request,
    query,
    aggs: { [FEED_COUNT]: { cardinality: { field: 'series_id', precision_threshold: 40_000 } } },
    _source: ['record.timezone', 'record.all_day', 'recurrence_id'],
  });
  const hits = found.hits.hits.map((hit): FeedMatch => ({
    id: hit._id as string,
    index: hit._index,
    version: hit._version ?? 0,
    series: Boolean(hit._source?.recurrence_id),
  }));
  const matches = hits.map(({ id, version }): [string, number] => [id, version]);
  const zones = new Set<string>();
  for (const hit of found.hits.hits) {
    const record = hit._source?.record;
    if (record && record.all_day !== true && typeof record.timezone === 'string') zones.add(record.timezone);
  }
  const { index } = request;
  const records = async (ids: string[]): Promise<Map<string, FeedRecord>> => {
    const page = await searchIndex<FeedHit>(services, {
      index,
      query: boolQuery({ filter: [{ ids: { values: ids } }, query] }),
      size: ids.length,
      version: true,
      _source: [...FEED_SOURCE, 'recurrence_id'],
    });
    return new Map(
      page.hits.hits.flatMap((hit) => {
        if (!hit._source) return [];
        const record = listedEventFor(hit._source.record, hit._source.password_protected === true, caller.principal);
        const series = hit._source.recurrence_id ? { series: true } : {};
        return [[hit._id as string, { record, version: hit._version ?? 0, ...series }]];
      }),
    );
  };
  const counted = found.aggregations?.[FEED_COUNT] as estypes.AggregationsCardinalityAggregate | undefined;
  return { matches, hits, total: counted?.value ?? totalOf(found), zones: [...zones], records };
}
