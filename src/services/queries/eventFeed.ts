import type { estypes } from '@elastic/elasticsearch';
import { listedEventFor } from '../../storage/recordAccess';
import type { Services } from '../container';
import { eventListQuery, type Caller, type EventListInput } from './eventList';
import { boolQuery } from '../../search/fullText';
import { searchIndex, totalOf } from './listing';

/** At most this many events in a feed (EXTENSIONS part 12). */
export const FEED_MAX_ENTRIES = 1000;
/** Records are fetched, and the feed written, this many at a time. */
export const FEED_PAGE_SIZE = 100;

interface FeedHit {
  record: Record<string, unknown>;
  password_protected?: boolean;
}

/** One event of a feed: its record as lists show it to the caller, and its version (the index's). */
export interface FeedRecord {
  record: Record<string, unknown>;
  version: number;
}

/** The matches of a feed, known before any record is fetched. */
export interface FeedPlan {
  /** `[id, version]` of each match, in list order: what the feed's entity tag is made of. */
  matches: [string, number][];
  /** Every match, also past the first FEED_MAX_ENTRIES. */
  total: number;
  /** The time zones of the timed matches (their VTIMEZONEs come before the events). */
  zones: string[];
  /** The records, FEED_PAGE_SIZE at a time, each page searched again with the list's filters. */
  pages(): AsyncGenerator<FeedRecord[]>;
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
  'record.occurrence',
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
 * then the records a page at a time, so a feed never holds more than one page of them. A record
 * that stopped matching between the two (unpublished, say) is left out, never shown.
 */
export async function planEventFeed(services: Services, input: EventListInput, caller: Caller): Promise<FeedPlan> {
  const { request: sorted } = await eventListQuery(services, input, caller);
  const request = { ...sorted, from: 0, size: FEED_MAX_ENTRIES };
  const query = unprotected(request.query);
  const found = await searchIndex<FeedHit>(services, {
    ...request,
    query,
    _source: ['record.timezone', 'record.all_day'],
  });
  const hits = found.hits.hits;
  const matches = hits.map((hit): [string, number] => [hit._id as string, hit._version ?? 0]);
  const zones = new Set<string>();
  for (const hit of hits) {
    const record = hit._source?.record;
    if (record && record.all_day !== true && typeof record.timezone === 'string') zones.add(record.timezone);
  }
  const { index } = request;
  async function* pages(): AsyncGenerator<FeedRecord[]> {
    for (let from = 0; from < matches.length; from += FEED_PAGE_SIZE) {
      const ids = matches.slice(from, from + FEED_PAGE_SIZE).map(([id]) => id);
      const page = await searchIndex<FeedHit>(services, {
        index,
        query: boolQuery({ filter: [{ ids: { values: ids } }], must: [query] }),
        size: ids.length,
        version: true,
        _source: FEED_SOURCE,
      });
      const byId = new Map(page.hits.hits.map((hit) => [hit._id as string, hit]));
      yield ids.flatMap((id) => {
        const hit = byId.get(id);
        if (!hit?._source) return [];
        const record = listedEventFor(hit._source.record, hit._source.password_protected === true, caller.principal);
        return [{ record, version: hit._version ?? 0 }];
      });
    }
  }
  return { matches, total: totalOf(found), zones: [...zones], pages };
}
