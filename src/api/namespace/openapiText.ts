import type { Language } from '../../../config';
import { de, fr } from './openapiTextTranslations';

/** How each language names a record kind: the phrase "a(n) X" and the plural. */
interface Label {
  a: string;
  plural: string;
}

/** Operation shapes whose summaries are generated (see summaryOf in openapiOperations.ts). */
export type SummaryKey =
  | 'list'
  | 'create'
  | 'readById'
  | 'readBySlug'
  | 'updateById'
  | 'updateBySlug'
  | 'trashById'
  | 'trashBySlug'
  | 'deleteById'
  | 'deleteBySlug'
  | 'namespaceIndex'
  | 'document'
  | 'documentAsset';

/** The fixed texts of the OpenAPI document, per request language. */
export interface DocTexts {
  title: string;
  labels: Record<string, Label>;
  /** `{a}` is the label's "a(n) X" phrase, `{A}` the same capitalised, `{plural}` its plural. */
  summaries: Record<SummaryKey, string>;
  tags: Record<string, string>;
  forms: { date: string; flag: string; list: string };
  access: { read: string; write: string };
  writeForms: string;
  alsoInQuery: string;
  bodyDescription: string;
  statuses: Record<string, string>;
  codes: string;
  headers: {
    contentLanguage: string;
    prefer: string;
    preferenceApplied: string;
    location: string;
    total: string;
    totalPages: string;
    link: string;
    wwwAuthenticate: string;
    retryAfter: string;
  };
  bearer: string;
  referencePage: string;
}

const en: DocTexts = {
  title: 'Events calendar REST API (calendar/events/v1)',
  labels: {
    event: { a: 'an event', plural: 'events' },
    venue: { a: 'a venue', plural: 'venues' },
    organizer: { a: 'an organizer', plural: 'organizers' },
    category: { a: 'a category', plural: 'categories' },
    tag: { a: 'a tag', plural: 'tags' },
  },
  summaries: {
    list: 'List {plural}',
    create: 'Create {a}',
    readById: 'Read {a} by ID',
    readBySlug: 'Read {a} by slug',
    updateById: 'Update {a} by ID (POST, PUT and PATCH all merge)',
    updateBySlug: 'Update {a} by slug (POST, PUT and PATCH all merge)',
    trashById: 'Trash {a} by ID (force=true deletes permanently)',
    trashBySlug: 'Trash {a} by slug (force=true deletes permanently)',
    deleteById: 'Delete {a} permanently by ID',
    deleteBySlug: 'Delete {a} permanently by slug',
    namespaceIndex: 'Namespace index: every route with its methods and arguments',
    document: 'This OpenAPI document (format=html: the browsable reference page)',
    documentAsset: 'A static file of the reference page',
  },
  tags: {
    namespace: 'The namespace index',
    documentation: 'This documentation',
    events: 'Events',
    venues: 'Venues: places where events occur',
    organizers: 'Organizers: parties that run events',
    categories: 'Event categories (hierarchical)',
    tags: 'Event tags (flat)',
  },
  forms: {
    date: 'Accepted forms: `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD`, ISO 8601 (with `T`, optional offset or `Z`), a unix timestamp in seconds, `now`, `today`, `tomorrow`, `yesterday`, `+N day(s)|week(s)|month(s)|year(s)` and `-N ...`.',
    flag: 'Accepts true/false, 1/0, yes/no, on/off (any case).',
    list: 'Send a JSON array, repeated `name[]=` values or a comma-separated string.',
  },
  access: {
    read: 'Public: no credentials needed. With an API key, the caller also sees what its role may read.',
    write:
      'Requires an API key (`Authorization: Bearer <key>`); the role decides what is allowed (401 without a key, 403 when the role is too weak).',
  },
  writeForms:
    'Parameters may be sent as JSON, as a form (urlencoded or multipart) or in the query string; the body wins on conflict.',
  alsoInQuery: '(Query string or body; the body wins.)',
  bodyDescription: 'The fields to write. Only the fields sent change; `null` (or `""` for text) clears a field.',
  statuses: {
    '200': 'Success',
    '201': 'Created; `Location` gives the new record’s rest_url',
    '400': 'Invalid request',
    '401': 'No or unknown API key',
    '403': 'Not allowed',
    '404': 'Not found',
    '405': 'Method not allowed',
    '409': 'Changed by another write meanwhile: read it again and resend',
    '410': 'Already in the trash',
    '413': 'Body too large',
    '415': 'Unsupported body media type',
    '431': 'Request line or headers too large (answered before routing, connection closed)',
    '503': 'MongoDB or Elasticsearch is unavailable; retry after `Retry-After` seconds',
    '429': 'Too many writes or failed authentications; retry after `Retry-After` seconds',
    default:
      'Unexpected failure: 500 `rest_internal_error`, or 503 `search-unavailable` / `storage-unavailable` with `Retry-After`',
  },
  codes: 'Error codes',
  headers: {
    contentLanguage:
      'The request’s content language (CONTRACT 1); a record shown in its original language says so in `i18n_language`',
    prefer:
      '`wait-for-index`: answer once the change is searchable (at most 5 s; `Preference-Applied` tells whether it was)',
    preferenceApplied: '`wait-for-index` when the change was searchable before the answer',
    location: 'rest_url of the created record',
    total: 'Number of matching records',
    totalPages: 'Number of pages',
    link: 'RFC 8288 links to the `next` and `prev` pages, when they exist',
    wwwAuthenticate: 'The Bearer challenge',
    retryAfter: 'Seconds to wait before retrying',
  },
  bearer: 'An API key created by the `apikey` ops script, sent as `Authorization: Bearer <key>`.',
  referencePage: 'Browsable reference page',
};

export const DOC_TEXTS: Record<Language, DocTexts> = { en, fr, de };

/** Fills `{a}`, `{A}` and `{plural}` of a summary pattern with a kind's label in that language. */
export function fillLabel(pattern: string, label: Label): string {
  const capitalised = label.a.charAt(0).toUpperCase() + label.a.slice(1);
  const plural = pattern.startsWith('{plural}')
    ? label.plural.charAt(0).toUpperCase() + label.plural.slice(1)
    : label.plural;
  return pattern.replace('{a}', label.a).replace('{A}', capitalised).replace('{plural}', plural);
}
