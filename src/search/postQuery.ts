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
  from: number;
  size: number;
}

const SEARCH_BOOSTS = ['name^3', 'details', 'excerpt', 'description'];

/** The search of a venue or organizer list page, ordered by name then ID. */
export function buildPostSearch(index: string, q: PostQuery): estypes.SearchRequest {
  const filter: estypes.QueryDslQueryContainer[] = [q.status];
  if (q.ids) filter.push({ terms: { id: q.ids } });
  if (q.hasEvents === true) filter.push({ range: { published_events: { gt: 0 } } });
  if (q.hasEvents === false) filter.push(boolQuery({ must_not: [{ range: { published_events: { gt: 0 } } }] }));
  if (q.upcomingAfter) filter.push({ range: { events_end_max: { gt: q.upcomingAfter.toISOString() } } });
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
