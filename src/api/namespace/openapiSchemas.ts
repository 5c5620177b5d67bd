import { LANGUAGES } from '../../../config';
import type { Schema } from './openapiParams';
import { RECURRENCE_FIELDS } from './openapiRecurrenceSchemas';
import type { TermKind } from '../../domain/kinds';
import { WEBHOOK_SCHEMAS } from './openapiWebhookSchemas';

/**
 * Response shapes (CONTRACT parts 3, 7, 9 and 10), written once here because they are output
 * shapes: no joi schema validates them. The conformance check of the test suite
 * (test/support/conformance.ts) holds the service to them.
 */

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str: Schema = { type: 'string' };
const nullableStr: Schema = { type: 'string', nullable: true };
const int: Schema = { type: 'integer' };
const bool: Schema = { type: 'boolean' };
const uri: Schema = { type: 'string', format: 'uri' };
const wireDate: Schema = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
  example: '2025-06-01 19:00:00',
};

/** A closed object: every listed property required unless named in `optional`. */
function record(properties: Record<string, Schema>, optional: string[] = [], description?: string): Schema {
  // OpenAPI 3.0 refuses an empty `required`.
  const required = Object.keys(properties).filter((name) => !optional.includes(name));
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

const common: Record<string, Schema> = {
  id: int,
  status: { type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private', 'trash'] },
  date: wireDate,
  date_utc: wireDate,
  modified: wireDate,
  modified_utc: wireDate,
  slug: str,
  url: { ...uri, description: 'Public page on the site' },
  rest_url: uri,
  author: { type: 'integer', description: 'Author user ID; 0 when none' },
  i18n_language: { type: 'string', enum: [...LANGUAGES], description: 'Language of the content returned' },
  translations: ref('Translations'),
};

const dateDetails = record(
  Object.fromEntries(['year', 'month', 'day', 'hour', 'minutes', 'seconds'].map((k) => [k, str])),
);

const image: Schema = {
  description: '`false` when the record has no image',
  anyOf: [
    { type: 'boolean', enum: [false] },
    record({
      url: uri,
      id: int,
      extension: str,
      width: { type: 'integer', nullable: true },
      height: { type: 'integer', nullable: true },
    }),
  ],
};

const event = record(
  {
    ...common,
    global_id: str,
    global_id_lineage: { type: 'array', items: str },
    title: str,
    description: nullableStr,
    excerpt: nullableStr,
    image: ref('Image'),
    all_day: bool,
    start_date: wireDate,
    start_date_details: ref('DateDetails'),
    end_date: wireDate,
    end_date_details: ref('DateDetails'),
    utc_start_date: wireDate,
    utc_start_date_details: ref('DateDetails'),
    utc_end_date: wireDate,
    utc_end_date_details: ref('DateDetails'),
    timezone: { type: 'string', description: 'IANA time zone name' },
    timezone_abbr: str,
    cost: { type: 'string', description: 'Display string' },
    cost_details: record({
      currency_symbol: str,
      currency_position: { type: 'string', enum: ['prefix', 'postfix'] },
      values: { type: 'array', items: str },
    }),
    website: { type: 'string', nullable: true, description: 'The event website, else its public page' },
    show_map: bool,
    show_map_link: bool,
    hide_from_listings: bool,
    sticky: bool,
    featured: bool,
    ticketed: bool,
    post_parent: { type: 'integer', description: 'Parent event ID; 0 when none' },
    categories: { type: 'array', items: ref('Category') },
    tags: { type: 'array', items: ref('Tag') },
    venue: {
      description: 'The venue; `[]` when none; an array when several',
      anyOf: [ref('Venue'), { type: 'array', items: ref('Venue') }],
    },
    organizer: { type: 'array', items: ref('Organizer') },
    json_ld: {
      type: 'object',
      description:
        'schema.org `Event` (single reads only, not in lists); a series adds an `eventSchedule` (schema.org `Schedule`) or `subEvent`s',
    },
    ...RECURRENCE_FIELDS,
    distance: {
      type: 'number',
      description: 'Distance to the requested point, in `geoloc_unit` (lists with `geoloc_lat`/`geoloc_lng` only)',
    },
  },
  ['json_ld', 'recurrence', 'next_occurrences', 'occurrence', 'distance'],
);

const coordinate: Schema = { type: 'number', nullable: true };
const venueText = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince'];
const venue = record({
  ...common,
  venue: { type: 'string', description: 'Venue name' },
  description: nullableStr,
  excerpt: nullableStr,
  image: ref('Image'),
  ...Object.fromEntries(venueText.map((name) => [name, nullableStr])),
  show_map: { type: 'boolean', nullable: true },
  show_map_link: { type: 'boolean', nullable: true },
  geo_lat: coordinate,
  geo_lng: coordinate,
});

const organizer = record({
  ...common,
  organizer: { type: 'string', description: 'Organizer name' },
  description: nullableStr,
  excerpt: nullableStr,
  image: ref('Image'),
  phone: nullableStr,
  website: nullableStr,
  email: nullableStr,
});

function term(taxonomy: TermKind): Schema {
  return record({
    id: int,
    name: str,
    slug: str,
    taxonomy: { type: 'string', enum: [taxonomy] },
    description: nullableStr,
    parent: {
      type: 'integer',
      description: taxonomy === 'tag' ? 'Always 0 for tags' : 'Parent category ID; 0 when none',
    },
    count: { type: 'integer', description: 'Number of published events using it' },
    url: uri,
    rest_url: uri,
    urls: record({ self: uri, collection: uri, up: uri }, ['up']),
    i18n_language: common.i18n_language!,
    translations: ref('Translations'),
  });
}

/** A list envelope (CONTRACT part 7) holding `records` under `key`, with `extras` when asked for. */
function list(key: string, item: string, extras: Record<string, Schema> = {}): Schema {
  return record(
    {
      [key]: { type: 'array', items: ref(item) },
      rest_url: { ...uri, description: 'This page, echoing the applied filters' },
      next_rest_url: { ...uri, description: 'Next page, present only when it exists' },
      previous_rest_url: { ...uri, description: 'Previous page, present only when it exists (never in a cursor walk)' },
      next_cursor: {
        ...nullableStr,
        description: 'With `cursor`: the cursor of the next page, null at the end of the walk',
        example: 'eyJrIjoiZXZlbnQiLCJsIjoiZW4iLCJuIjo1MH0.q3C7…',
      },
      total: int,
      total_pages: int,
      ...extras,
    },
    ['next_rest_url', 'previous_rest_url', 'next_cursor', ...Object.keys(extras)],
  );
}

const linkFacet: Schema = {
  type: 'array',
  items: record({ id: int, slug: str, name: str, count: int }),
};
const flagFacet: Schema = { type: 'array', items: record({ value: bool, count: int }) };

/** What `facets`, `histogram` and `geo_grid` add to the event list (EXTENSIONS part 14). */
const discoveryFields: Record<string, Schema> = {
  facets: {
    ...record(
      {
        categories: linkFacet,
        tags: linkFacet,
        venue: linkFacet,
        organizer: linkFacet,
        featured: flagFacet,
        ticketed: flagFacet,
      },
      ['categories', 'tags', 'venue', 'organizer', 'featured', 'ticketed'],
    ),
    description: 'With `facets`: each facet asked for, counted with every filter but its own',
    example: { categories: [{ id: 12, slug: 'jazz', name: 'Jazz', count: 12 }], featured: [{ value: true, count: 3 }] },
  },
  histogram: {
    type: 'array',
    description: 'With `histogram`: the non-empty periods, in `tz`',
    items: record({ start: wireDate, count: int }),
    example: [{ start: '2026-11-27 00:00:00', count: 4 }],
  },
  geo_grid: {
    type: 'array',
    description: 'With `geo_grid`: the matches per map tile, with the centroid of their venues',
    items: record({
      tile: { type: 'string', pattern: '^\\d+/\\d+/\\d+$' },
      lat: { type: 'number' },
      lng: { type: 'number' },
      count: int,
    }),
    example: [{ tile: '12/2074/1409', lat: 48.8566, lng: 2.3522, count: 7 }],
  },
};

const suggestions = record({
  suggestions: {
    type: 'array',
    items: record({
      kind: { type: 'string', enum: ['events', 'venues', 'organizers', 'categories', 'tags'] },
      id: int,
      text: { type: 'string', description: 'The name or title, in the language the record came back in' },
      rest_url: uri,
    }),
  },
});

/** `GET /changes` (EXTENSIONS 17). */
const changes = record({
  changes: {
    type: 'array',
    items: record({
      kind: { type: 'string', enum: ['events', 'venues', 'organizers', 'categories', 'tags'] },
      id: int,
      action: { type: 'string', enum: ['upsert', 'delete'] },
      modified_utc: { ...wireDate, description: 'When the change was recorded (UTC)' },
      record: {
        type: 'object',
        nullable: true,
        description:
          'upsert: the record as its list shows it to this caller, in the request language (an Event, Venue, Organizer, Category or Tag); delete: null',
      },
    }),
  },
  next_since: {
    ...str,
    description: 'The token to send as `since` next',
    example: 'eyJzZXEiOjQyLCJhdCI6MTc2NDIyMDAwMDAwMH0.Xk2…',
  },
  has_more: { ...bool, description: 'More changes are waiting: ask again at once with next_since' },
});

const argument: Schema = {
  type: 'object',
  properties: {
    type: { oneOf: [str, { type: 'array', items: str }], description: 'A JSON type, or the types accepted' },
    required: bool,
    default: {},
    enum: { type: 'array', items: {} },
    items: { type: 'object' },
    description: str,
    example: {},
  },
  required: ['type', 'required'],
};

const namespaceIndex = record({
  namespace: str,
  routes: {
    type: 'object',
    additionalProperties: record(
      {
        namespace: str,
        methods: { type: 'array', items: str },
        endpoints: {
          type: 'array',
          items: record(
            {
              methods: { type: 'array', items: str },
              args: { type: 'object', additionalProperties: argument },
              summary: str,
              description: str,
            },
            ['summary', 'description'],
          ),
        },
        _links: { type: 'object', properties: { self: uri } },
      },
      ['_links'],
    ),
  },
  _links: { type: 'object' },
});

/** Every schema of `components.schemas`. */
export const RESPONSE_SCHEMAS: Record<string, Schema> = {
  Event: event,
  Venue: venue,
  Organizer: organizer,
  Category: term('category'),
  Tag: term('tag'),
  EventList: list('events', 'Event', discoveryFields),
  Suggestions: suggestions,
  VenueList: list('venues', 'Venue'),
  OrganizerList: list('organizers', 'Organizer'),
  CategoryList: list('categories', 'Category'),
  TagList: list('tags', 'Tag'),
  Changes: changes,
  Deleted: record(
    { id: int, deleted: { type: 'boolean', enum: [true] } },
    [],
    'Answer of a permanent delete (`force=true`)',
  ),
  CancelledOccurrence: record(
    { deleted: { type: 'boolean', enum: [true] }, previous: ref('Event') },
    [],
    'Answer of a cancelled occurrence: the occurrence as it was',
  ),
  Error: record({
    code: str,
    message: str,
    data: {
      type: 'object',
      properties: {
        status: int,
        params: {
          type: 'object',
          additionalProperties: str,
          description: 'Each bad parameter with its message (validation errors)',
        },
      },
      required: ['status'],
    },
  }),
  NamespaceIndex: namespaceIndex,
  Image: image,
  DateDetails: dateDetails,
  Translations: {
    type: 'object',
    description: 'rest_url of each language that has its own content',
    properties: Object.fromEntries(LANGUAGES.map((lang) => [lang, uri])),
    additionalProperties: false,
  },
  ...WEBHOOK_SCHEMAS,
};

/** Record kinds by name, plural and schema: `response: 'event'` → Event, `'events'` → EventList. */
export const KINDS: { kind: string; plural: string; schema: string }[] = [
  { kind: 'event', plural: 'events', schema: 'Event' },
  { kind: 'venue', plural: 'venues', schema: 'Venue' },
  { kind: 'organizer', plural: 'organizers', schema: 'Organizer' },
  { kind: 'category', plural: 'categories', schema: 'Category' },
  { kind: 'tag', plural: 'tags', schema: 'Tag' },
];

export { ref as schemaRef };
