import type { estypes } from '@elastic/elasticsearch';
import { PLAIN_SUBFIELD } from './mappings';

/**
 * Typos are looked for in the first words of a search only, and in words no longer than a long
 * German compound: Elasticsearch builds an automaton per fuzzy word, whose cost grows with the
 * word (a 500-letter word took 100 ms of its CPU, against 2 ms matched as written).
 */
const MAX_FUZZY_WORDS = 10;
const MAX_FUZZY_WORD_CHARS = 30;

const fuzzyFits = (word: string) => [...word].length <= MAX_FUZZY_WORD_CHARS;

/**
 * Typo-tolerant full text over `all_text` (every searchable field, copied there with the index
 * language's analyser): every word must match, by its stem (`soirées` finds `soirée`; a stop word
 * matches anything) or as written within an edit distance that grows with its length, or the
 * words prefix the name field. Typos are matched on the words as written, never on stems: those
 * are short, so one edit reaches unrelated words. `boosts` only rank. The user's text is matched
 * as text: no query syntax is interpreted.
 */
export function fullTextQuery(
  search: string,
  nameField: string,
  boosts: string[],
  textField = 'all_text',
): estypes.QueryDslQueryContainer {
  const plainField = `${textField}.${PLAIN_SUBFIELD}`;
  // A "word" of symbols only (`*`, `&&`) has no terms: it neither matches nor is required.
  const words = search.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (words.length === 0) return { match_none: {} };
  const fuzziness = (fuzzy: boolean) => (fuzzy ? { fuzziness: 'AUTO' } : {});
  const everyWord = words.map((word, i) =>
    boolQuery({ minimum_should_match: 1 }, [
      { match: { [textField]: { query: word, operator: 'and', zero_terms_query: 'all' } } },
      {
        match: {
          [plainField]: { query: word, operator: 'and', ...fuzziness(i < MAX_FUZZY_WORDS && fuzzyFits(word)) },
        },
      },
    ]),
  );
  // Stop words match anything by stem: some word must match by a stem it has (a stop word has
  // none) or as written, so `the` alone is not every record, while `family` finds `families`
  // (three edits apart, one stem).
  const someWord = boolQuery({ minimum_should_match: 1 }, [
    { match: { [textField]: { query: search } } },
    {
      match: {
        [plainField]: { query: search, ...fuzziness(words.length <= MAX_FUZZY_WORDS && words.every(fuzzyFits)) },
      },
    },
  ]);
  return boolQuery(
    {
      must: [
        boolQuery({ minimum_should_match: 1 }, [
          boolQuery({ must: [...everyWord, someWord] }),
          { match_bool_prefix: { [nameField]: { query: search, operator: 'and' } } },
        ]),
      ],
    },
    [
      { multi_match: { query: search, fields: boosts, type: 'best_fields' } },
      { match_phrase: { [nameField]: { query: search, boost: 3 } } },
    ],
  );
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
