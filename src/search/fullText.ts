import type { estypes } from '@elastic/elasticsearch';

/**
 * Typo-tolerant full text over `all_text` (every searchable field, copied there with the index
 * language's analyser): every word must match, each within an edit distance that grows with its
 * length, or the words prefix the name field. `boosts` only rank. The user's text is matched as
 * text: no query syntax is interpreted.
 */
export function fullTextQuery(
  search: string,
  nameField: string,
  boosts: string[],
  textField = 'all_text',
): estypes.QueryDslQueryContainer {
  return {
    bool: {
      must: [
        {
          bool: {
            should: [
              { match: { [textField]: { query: search, operator: 'and', fuzziness: 'AUTO' } } },
              { match_bool_prefix: { [nameField]: { query: search, operator: 'and' } } },
            ],
            minimum_should_match: 1,
          },
        },
      ],
      should: [
        { multi_match: { query: search, fields: boosts, type: 'best_fields' } },
        { match_phrase: { [nameField]: { query: search, boost: 3 } } },
      ],
    },
  };
}

type Clauses = estypes.QueryDslQueryContainer[];

/**
 * A bool query. `should` is a separate argument on purpose: chai's `should` augments every
 * object type, so object literals without it do not type-check as bool queries in this project.
 */
export function boolQuery(
  parts: { filter?: Clauses; must?: Clauses; must_not?: Clauses; minimum_should_match?: number },
  should: Clauses = [],
): estypes.QueryDslQueryContainer {
  return { bool: { ...parts, should } };
}
