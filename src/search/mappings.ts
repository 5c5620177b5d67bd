import type { estypes } from '@elastic/elasticsearch';
import type { Language } from '../../config';
import type { RecordKind } from '../domain/kinds';

type Properties = Record<string, estypes.MappingProperty>;

/** Elasticsearch's built-in language analysers (stemming, stop words, elision, folding). */
export const ANALYZER: Record<Language, string> = { en: 'english', fr: 'french', de: 'german' };

/** Case- and accent-insensitive keyword, for exact matches and sorting by name. */
const SORT_NORMALIZER = 'sortable';
/** Words as written (lower case, accents folded, French elisions dropped): typos are matched on these. */
export const PLAIN_ANALYZER = 'plain';
/** The sub-field of a full-text field analysed by PLAIN_ANALYZER. */
export const PLAIN_SUBFIELD = 'plain';
/**
 * The sub-field of names and titles that type-ahead matches (`GET /suggest`): every word indexed
 * with each of its beginnings (`jazz` as `j`, `ja`, `jaz`, `jazz`), folded as PLAIN_ANALYZER folds,
 * so that the letters typed so far are one term lookup, and one typo one fuzzy term lookup.
 */
export const PREFIX_SUBFIELD = 'prefix';
const PREFIX_INDEX_ANALYZER = 'prefix_index';
const PREFIX_SEARCH_ANALYZER = 'prefix_search';
/** Longest word beginning indexed; longer typed words are cut to it before matching. */
const PREFIX_MAX_CHARS = 20;

const integer: estypes.MappingProperty = { type: 'integer' };
const keyword: estypes.MappingProperty = { type: 'keyword' };
const bool: estypes.MappingProperty = { type: 'boolean' };
const date: estypes.MappingProperty = { type: 'date' };
const geoPoint: estypes.MappingProperty = { type: 'geo_point' };
/** The serialised API record: returned as is, never searched. */
const record: estypes.MappingProperty = { type: 'object', enabled: false };
/** What dependents of this record care about, to decide whether to propagate a change. */
const deps: estypes.MappingProperty = { type: 'keyword', index: false, doc_values: false };

function text(lang: Language, copyTo?: string): estypes.MappingProperty {
  return { type: 'text', analyzer: ANALYZER[lang], ...(copyTo ? { copy_to: copyTo } : {}) };
}

/**
 * A field full-text search matches: stemmed in `lang` (`soirées` finds `soirée`), with the words
 * as written beside them for typos. A typo allowance on stems matches unrelated words: the French
 * stem of `galerie` is `gal`, one edit from `gap`.
 */
const PLAIN_FIELDS: Properties = { [PLAIN_SUBFIELD]: { type: 'text', analyzer: PLAIN_ANALYZER } };

/** The type-ahead sub-field (see PREFIX_SUBFIELD): matching only, no scores. */
const PREFIX_FIELDS: Properties = {
  [PREFIX_SUBFIELD]: {
    type: 'text',
    analyzer: PREFIX_INDEX_ANALYZER,
    search_analyzer: PREFIX_SEARCH_ANALYZER,
    index_options: 'docs',
    norms: false,
  },
};

function searchedText(lang: Language): estypes.MappingProperty {
  return { ...text(lang), fields: PLAIN_FIELDS } as estypes.MappingProperty;
}

/**
 * Longest text a `sort` sub-field keeps: past every name the API accepts (titles: 500), which
 * would otherwise have no sort value and come last in either order.
 */
const SORT_KEY_MAX_CHARS = 1_000;

/** A text field searchable in `lang` with a keyword sub-field `sort` for exact match and order. */
function sortableText(lang: Language, copyTo?: string, more: Properties = {}): estypes.MappingProperty {
  return {
    ...text(lang, copyTo),
    fields: { sort: { type: 'keyword', normalizer: SORT_NORMALIZER, ignore_above: SORT_KEY_MAX_CHARS }, ...more },
  } as estypes.MappingProperty;
}

function eventProperties(lang: Language): Properties {
  const all = 'all_text';
  return {
    id: integer,
    /** The series an occurrence document belongs to (a single event's own ID). */
    series_id: integer,
    /** An occurrence's original start (`20270105T090000Z`); absent on single events. */
    recurrence_id: keyword,
    /** The outbox version a document was indexed at: older documents of a series are stale. */
    indexed_version: { type: 'long' },
    status: keyword,
    author: integer,
    post_parent: integer,
    title: sortableText(lang, all, PREFIX_FIELDS),
    description: text(lang, all),
    excerpt: text(lang, all),
    venue_names: text(lang, all),
    organizer_names: text(lang, all),
    category_names: text(lang, all),
    tag_names: text(lang, all),
    all_text: searchedText(lang),
    start_utc: date,
    end_utc: date,
    /** Wall-clock times in the event's own time zone, stored zone-less (read as UTC). */
    start_local: date,
    end_local: date,
    date,
    modified: date,
    featured: bool,
    ticketed: bool,
    hide_from_listings: bool,
    all_day: bool,
    sticky: bool,
    has_location: bool,
    password_protected: bool,
    venue_ids: integer,
    organizer_ids: integer,
    category_ids: integer,
    tag_ids: integer,
    category_slugs: keyword,
    tag_slugs: keyword,
    location: geoPoint,
    record,
    deps,
  };
}

function postProperties(lang: Language): Properties {
  const all = 'all_text';
  return {
    id: integer,
    status: keyword,
    author: integer,
    name: sortableText(lang, all, PREFIX_FIELDS),
    description: text(lang, all),
    excerpt: text(lang, all),
    /** Address fields (venues) or contact fields (organizers). */
    details: text(lang, all),
    all_text: searchedText(lang),
    slug: keyword,
    date,
    modified: date,
    has_location: bool,
    location: geoPoint,
    /** Published events without a password: what every caller may see the record linked to. */
    published_events: integer,
    /** Latest end of those events: "upcoming" when still in the future. */
    events_end_max: date,
    /** Published events with a password, and their latest end: counted for editors and above. */
    protected_events: integer,
    protected_events_end_max: date,
    record,
    deps,
  };
}

function termProperties(lang: Language): Properties {
  return {
    id: integer,
    taxonomy: keyword,
    name: sortableText(lang, undefined, { ...PLAIN_FIELDS, ...PREFIX_FIELDS }),
    slug: { type: 'keyword', normalizer: SORT_NORMALIZER },
    description: text(lang),
    parent: integer,
    count: integer,
    record,
    deps,
  };
}

const PROPERTIES: Record<RecordKind, (lang: Language) => Properties> = {
  event: eventProperties,
  venue: postProperties,
  organizer: postProperties,
  category: termProperties,
  tag: termProperties,
};

const PLAIN_FILTERS = ['elision', 'lowercase', 'asciifolding'];

/**
 * Settings and explicit mappings of the index of `kind` in `lang`; no dynamic fields. `instance`:
 * the identity of the database the index is built from (src/storage/instanceIdentity.ts).
 */
export function indexDefinition(
  kind: RecordKind,
  lang: Language,
  refreshInterval: string,
  instance?: string,
): { settings: estypes.IndicesIndexSettings; mappings: estypes.MappingTypeMapping } {
  return {
    settings: {
      number_of_shards: 1,
      auto_expand_replicas: '0-1',
      refresh_interval: refreshInterval,
      analysis: {
        normalizer: { [SORT_NORMALIZER]: { type: 'custom', filter: ['lowercase', 'asciifolding'] } },
        filter: {
          word_beginnings: { type: 'edge_ngram', min_gram: 1, max_gram: PREFIX_MAX_CHARS },
          typed_word: { type: 'truncate', length: PREFIX_MAX_CHARS },
        },
        analyzer: {
          [PLAIN_ANALYZER]: { type: 'custom', tokenizer: 'standard', filter: PLAIN_FILTERS },
          [PREFIX_INDEX_ANALYZER]: {
            type: 'custom',
            tokenizer: 'standard',
            filter: [...PLAIN_FILTERS, 'word_beginnings'],
          },
          [PREFIX_SEARCH_ANALYZER]: { type: 'custom', tokenizer: 'standard', filter: [...PLAIN_FILTERS, 'typed_word'] },
        },
      },
    },
    mappings: {
      dynamic: 'strict',
      ...(instance === undefined ? {} : { _meta: { instance } }),
      properties: PROPERTIES[kind](lang),
    },
  };
}
