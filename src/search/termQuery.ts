import type { estypes } from '@elastic/elasticsearch';
import { boolQuery, fullTextQuery } from './fullText';

export type TermOrderBy = 'id' | 'name' | 'slug' | 'count';

/** Everything a category or tag list filters and sorts by (CONTRACT part 7). */
export interface TermQuery {
  search?: string;
  include?: number[];
  exclude?: number[];
  /** Only the terms of an event. */
  ids?: number[];
  hideEmpty: boolean;
  parent?: number;
  slugs?: string[];
  orderby: TermOrderBy;
  order: 'asc' | 'desc';
  from: number;
  size: number;
}

const SORT_FIELD: Record<TermOrderBy, string> = { id: 'id', name: 'name.sort', slug: 'slug', count: 'count' };

/** The search of a category or tag list page. */
export function buildTermSearch(index: string, q: TermQuery): estypes.SearchRequest {
  const filter: estypes.QueryDslQueryContainer[] = [];
  if (q.include) filter.push({ terms: { id: q.include } });
  if (q.ids) filter.push({ terms: { id: q.ids } });
  if (q.hideEmpty) filter.push({ range: { count: { gt: 0 } } });
  if (q.parent !== undefined) filter.push({ term: { parent: q.parent } });
  if (q.slugs) filter.push({ terms: { slug: q.slugs } });
  const mustNot: estypes.QueryDslQueryContainer[] = q.exclude ? [{ terms: { id: q.exclude } }] : [];
  const sort: estypes.SortCombinations[] = [{ [SORT_FIELD[q.orderby]]: { order: q.order } }];
  if (q.orderby !== 'id') sort.push({ id: { order: 'asc' } });
  return {
    index,
    query: boolQuery({
      filter,
      must_not: mustNot,
      ...(q.search ? { must: [fullTextQuery(q.search, 'name', ['name^3', 'description'], 'name')] } : {}),
    }),
    sort,
    from: q.from,
    size: q.size,
    track_total_hits: true,
    _source: ['record'],
  };
}
