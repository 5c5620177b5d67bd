import type { estypes } from '@elastic/elasticsearch';
import type { RecordKind } from '../domain/kinds';
import { boolQuery } from './fullText';
import { PREFIX_SUBFIELD } from './mappings';

/** What `GET /suggest` suggests, in the order of its `kinds` parameter (EXTENSIONS part 15). */
export const SUGGEST_KINDS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;
export type SuggestKind = (typeof SUGGEST_KINDS)[number];

export const SUGGEST_KIND_OF: Record<SuggestKind, RecordKind> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'category',
  tags: 'tag',
};

/** The name or title field each kind suggests (events: `title`, the others: `name`). */
export const SUGGESTED_FIELD: Record<SuggestKind, 'title' | 'name'> = {
  events: 'title',
  venues: 'name',
  organizers: 'name',
  categories: 'name',
  tags: 'name',
};

/** Letters typed before a typo is forgiven (EXTENSIONS part 15: "past the first three letters"). */
const EXACT_PREFIX_CHARS = 3;

/**
 * Ranks of a match, added up (constant scores, so that suggestions of every kind compare): the
 * name begins with the text as typed, every word begins as typed, every word begins within one typo.
 */
const SCORE = { nameStarts: 4, exact: 2, typo: 1 } as const;

/** Lower case, accents removed: what the `sort` keyword normaliser keeps of a name. */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

const constant = (boost: number, filter: estypes.QueryDslQueryContainer): estypes.QueryDslQueryContainer => ({
  constant_score: { filter, boost },
});

/**
 * The search of one kind's suggestions: every typed word must begin a word of the name (the last
 * one too: it is being typed), within one typo past its first three letters; names beginning with
 * the typed text come first, then exact word beginnings, then typos; ties by name. `visible` keeps
 * what the caller may list.
 */
export function suggestSearch(
  index: string,
  kind: SuggestKind,
  text: string,
  visible: estypes.QueryDslQueryContainer[],
  size: number,
): estypes.SearchRequest {
  const field = SUGGESTED_FIELD[kind];
  const prefixField = `${field}.${PREFIX_SUBFIELD}`;
  const words = (fuzzy: boolean) => ({
    match: {
      [prefixField]: {
        query: text,
        operator: 'and' as const,
        ...(fuzzy ? { fuzziness: 1, prefix_length: EXACT_PREFIX_CHARS, max_expansions: 20 } : {}),
      },
    },
  });
  return {
    index,
    query: boolQuery({ filter: visible, must: [constant(SCORE.typo, words(true))] }, [
      constant(SCORE.exact, words(false)),
      constant(SCORE.nameStarts, { prefix: { [`${field}.sort`]: folded(text) } }),
    ]),
    sort: [{ _score: { order: 'desc' } }, { [`${field}.sort`]: { order: 'asc' } }, { id: { order: 'asc' } }],
    size,
    track_total_hits: false,
    // A series is indexed once per occurrence: suggested once, as its page is one.
    ...(kind === 'events' ? { collapse: { field: 'series_id' } } : {}),
    _source: ['id', field, 'record.rest_url'],
  };
}
