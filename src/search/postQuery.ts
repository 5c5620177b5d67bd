import type { estypes } from '@elastic/elasticsearch';
import { boolQuery, fullTextQuery } from './fullText';

/** Everything a venue or organizer list filters by (CONTRACT part 7). */
export interface PostQuery {
  status: estypes.QueryDslQueryContainer;
  search?: string;
  /** Only these IDs (the venues or organizers of an event). */
  ids?: number[];
  hasEvents?: boolean;
  /** Only records with a published event not yet ended at this instant. */
  upcomingAfter?: Date;
  /** Whether password-protected events count (editors and above see them linked). */
  countProtected: boolean;
  from: number;
  size: number;
}

const SEARCH_BOOSTS = ['name^3', 'details', 'excerpt', 'description'];

/** The fields counting a record's published events, without and with a password. */
const STATS = {
  open: { count: 'published_events', endMax: 'events_end_max' },
  protected: { count: 'protected_events', endMax: 'protected_events_end_max' },
};

const anyOf = (clauses: estypes.QueryDslQueryContainer[]): estypes.QueryDslQueryContainer =>
  clauses.length === 1 ? clauses[0]! : boolQuery({ minimum_should_match: 1 }, clauses);

/** The search of a venue or organizer list page, ordered by name then ID. */
export function buildPostSearch(index: string, q: PostQuery): estypes.SearchRequest {
  const filter: estypes.QueryDslQueryContainer[] = [q.status];
  if (q.ids) filter.push({ terms: { id: q.ids } });
  const counted = q.countProtected ? [STATS.open, STATS.protected] : [STATS.open];
  const hasEvents = anyOf(counted.map((stats) => ({ range: { [stats.count]: { gt: 0 } } })));
  if (q.hasEvents === true) filter.push(hasEvents);
  if (q.hasEvents === false) filter.push(boolQuery({ must_not: [hasEvents] }));
  if (q.upcomingAfter) {
    const after = q.upcomingAfter.toISOString();
    filter.push(anyOf(counted.map((stats) => ({ range: { [stats.endMax]: { gt: after } } }))));
  }
  return {
    index,
    query: boolQuery({ filter, ...(q.search ? { must: [fullTextQuery(q.search, 'name', SEARCH_BOOSTS)] } : {}) }),
    sort: [{ 'name.sort': { order: 'asc' } }, { id: { order: 'asc' } }],
    from: q.from,
    size: q.size,
    track_total_hits: true,
    _source: ['record'],
  };
}
