import { LANGUAGES } from '../../../config';
import type { Method, RouteSpec } from '../../http/types';
import { describeSchema, pathInputKeys } from './describe';
import type { Schema } from './openapiParams';
import { KINDS, RESPONSE_SCHEMAS, schemaRef } from './openapiSchemas';
import type { DocTexts } from './openapiText';

type Kind = (typeof KINDS)[number];

/** What a route's `response` name documents. */
export type ResponseShape =
  | { shape: 'record'; kind: Kind }
  | { shape: 'list'; kind: Kind }
  | { shape: 'calendar'; kind: Kind }
  | { shape: 'schema'; name: string }
  | { shape: 'namespace' | 'openapi' | 'asset' | 'suggestions' | 'changes' | 'ndjson' | 'unknown' };

const squash = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

/**
 * Resolves `RouteSpec.response`: a kind (`event`) is that record, its plural (`events`) or a
 * `-list` form (`event-list`, `eventList`) is the list envelope; `namespace`, `openapi` and
 * `asset` are the index, this document and the reference page's files.
 */
export function resolveResponse(name: string | undefined): ResponseShape {
  const key = squash(name ?? '');
  for (const kind of KINDS) {
    if (key === kind.kind) return { shape: 'record', kind };
    if ([kind.plural, `${kind.kind}list`, `list${kind.kind}`, `${kind.plural}list`].includes(key))
      return { shape: 'list', kind };
  }
  if (key === 'namespace' || key === 'namespaceindex') return { shape: 'namespace' };
  if (key === 'openapi' || key === 'doc' || key === 'document') return { shape: 'openapi' };
  if (key === 'asset') return { shape: 'asset' };
  if (key === 'suggestions') return { shape: 'suggestions' };
  if (key === 'calendar') return { shape: 'calendar', kind: KINDS.find((kind) => kind.kind === 'event')! };
  if (key === 'changes') return { shape: 'changes' };
  if (key === 'ndjson') return { shape: 'ndjson' };
  // Any other shape by its schema's name (`SubscriptionList`).
  if (name && RESPONSE_SCHEMAS[name]) return { shape: 'schema', name };
  return { shape: 'unknown' };
}

/** The record kind a route is about: from its response, else from its resource (`events` → event). */
export function kindOf(route: RouteSpec): Kind | undefined {
  const resolved = resolveResponse(route.response);
  if ('kind' in resolved) return resolved.kind;
  return KINDS.find((k) => k.plural === route.resource || k.kind === route.resource);
}

const json = (schema: Schema) => ({ 'application/json': { schema } });

const CALENDAR_EXAMPLE = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//events-calendar//calendar-events-v1//EN',
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Paris',
  '…',
  'END:VTIMEZONE',
  'BEGIN:VEVENT',
  'UID:event-42@api.example.org',
  'SEQUENCE:4',
  'DTSTAMP:20270102T090000Z',
  'DTSTART;TZID=Europe/Paris:20270105T200000',
  'DTEND;TZID=Europe/Paris:20270105T230000',
  'SUMMARY:Jazz night\\, trio',
  'LOCATION:Salle Pleyel\\n252 rue du Faubourg Saint-Honoré\\, Paris',
  'GEO:48.8773;2.3017',
  'URL;VALUE=URI:https://example.org/event/jazz-night/',
  'STATUS:CONFIRMED',
  'LAST-MODIFIED:20270102T090000Z',
  'END:VEVENT',
  'END:VCALENDAR',
].join('\r\n');

/** The iCalendar alternative of routes answering `Accept: text/calendar`. */
const calendar = () => ({
  'text/calendar': {
    schema: { type: 'string', description: 'RFC 5545 calendar: one VEVENT per event, one VTIMEZONE per zone used' },
    example: CALENDAR_EXAMPLE,
  },
});

/** `GET /events` and `GET /events/{id}` also answer iCalendar (`Accept: text/calendar`). */
const negotiatesCalendar = (route: RouteSpec) => route.path === '/events' || route.path === '/events/:id';

function successContent(route: RouteSpec, method: Method, resolved: ResponseShape): Record<string, unknown> {
  const alternatives = method === 'GET' && negotiatesCalendar(route) ? calendar() : {};
  switch (resolved.shape) {
    case 'record': {
      const record = schemaRef(resolved.kind.schema);
      const forceable = method === 'DELETE' && 'force' in (describeSchema(route.input).keys ?? {});
      return { ...json(forceable ? { oneOf: [record, schemaRef('Deleted')] } : record), ...alternatives };
    }
    case 'list':
      return { ...json(schemaRef(`${resolved.kind.schema}List`)), ...alternatives };
    case 'calendar':
      return calendar();
    case 'namespace':
      return json(schemaRef('NamespaceIndex'));
    case 'suggestions':
      return json(schemaRef('Suggestions'));
    case 'changes':
      return json(schemaRef('Changes'));
    case 'ndjson':
      return {
        'application/x-ndjson': {
          schema: { type: 'string', description: 'One record a line, as JSON, each as the list shows it' },
        },
      };
    case 'schema':
      return json(schemaRef(resolved.name));
    case 'openapi':
      return {
        'application/json': {
          schema: { type: 'object', description: 'OpenAPI 3.0.3 document', required: ['openapi', 'info', 'paths'] },
        },
        'text/html': { schema: { type: 'string', description: 'The reference page (format=html)' } },
      };
    case 'asset':
      return {
        'text/css': { schema: { type: 'string' } },
        'application/javascript': { schema: { type: 'string' } },
        'image/png': { schema: { type: 'string', format: 'binary' } },
      };
    default:
      return json({ type: 'object' });
  }
}

/** Whether the route has a required parameter besides its path's (so a request may miss it). */
function hasRequiredParameter(route: RouteSpec): boolean {
  const inPath = pathInputKeys(route);
  const keys = describeSchema(route.input).keys ?? {};
  return Object.entries(keys).some(([name, key]) => key.flags?.presence === 'required' && !inPath.has(name));
}

/** Error codes each status can carry on this route (CONTRACT part 9), `{kind}` filled in. */
function errorCodes(status: number, route: RouteSpec, kind: Kind | undefined, listing: boolean): string[] {
  const k = kind?.kind ?? '{kind}';
  const byPath = /:\w+/.test(route.path);
  const codes: Record<number, string[]> = {
    400: [
      'rest_invalid_param',
      ...(hasRequiredParameter(route) ? ['rest_missing_callback_param'] : []),
      'rest_invalid_json',
      ...(byPath && kind ? [`rest-invalid-${k}-id`] : []),
      ...(listing ? ['page-too-deep'] : []),
    ],
    401: ['rest_unauthorized'],
    403: [
      'rest_forbidden',
      ...(kind && byPath ? [`${k}-not-accessible`, `${k}-no-longer-available`] : []),
      ...(k === 'event' && byPath ? ['event-password-protected'] : []),
    ],
    404: [
      'rest_no_route',
      ...(kind && byPath ? [`rest-${k}-not-found`] : []),
      ...(listing ? [`${k}-archive-page-not-found`] : []),
      ...(route.path === '' ? ['rest_invalid_namespace'] : []),
    ],
    405: ['rest_method_not_allowed'],
    409: ['rest_conflict'],
    410: [expiring(route, listing) ?? `${k}-is-in-trash`],
    413: ['rest_payload_too_large'],
    415: ['rest_unsupported_media_type'],
    429: ['rest_rate_limited'],
    431: ['rest_headers_too_large'],
    503: [
      ...(listing || route.response === 'suggestions' ? ['search-unavailable'] : []),
      ...(route.response === 'suggestions' ? [] : ['storage-unavailable']),
    ],
  };
  return codes[status] ?? [];
}

/** The 410 of routes that hand out tokens with a life: a list's cursor, the change feed's position. */
function expiring(route: RouteSpec, listing: boolean): string | null {
  if (listing) return 'cursor-expired';
  return resolveResponse(route.response).shape === 'changes' ? 'changes-token-expired' : null;
}

const header = (description: string, schema: Schema, required = false) => ({ description, required, schema });

/** Headers every response carries, referenced from each response. */
export const sharedHeaders = (t: DocTexts) => ({
  ContentLanguage: header(t.headers.contentLanguage, { type: 'string', enum: [...LANGUAGES] }, true),
});

/** Whether a route creates a record: POST on a collection path. */
export const isCreate = (route: RouteSpec, method: Method): boolean =>
  method === 'POST' && route.access === 'write' && !/:\w+/.test(route.path);

/** The responses of one operation: its success status, each error status of the route, and `default`. */
export function responsesOf(route: RouteSpec, method: Method, t: DocTexts): Record<string, unknown> {
  const resolved = resolveResponse(route.response);
  const kind = kindOf(route);
  const listing = resolved.shape === 'list';
  const contentLanguage = { 'Content-Language': { $ref: '#/components/headers/ContentLanguage' } };
  const created = isCreate(route, method);
  const successHeaders: Record<string, unknown> = { ...contentLanguage };
  if (created) successHeaders.Location = header(t.headers.location, { type: 'string', format: 'uri' }, true);
  if (route.access === 'write' && kind)
    successHeaders['Preference-Applied'] = header(t.headers.preferenceApplied, {
      type: 'string',
      enum: ['wait-for-index'],
    });
  if (listing) {
    successHeaders['X-Total'] = header(t.headers.total, { type: 'integer' }, true);
    successHeaders['X-Total-Pages'] = header(t.headers.totalPages, { type: 'integer' }, true);
    successHeaders.Link = header(t.headers.link, { type: 'string' });
  }
  // A streamed export is revalidated by no validator: it is made as it is sent.
  const reading = method === 'GET' && resolved.shape !== 'ndjson';
  if (reading) {
    successHeaders.ETag = header(t.headers.etag, { type: 'string' }, true);
    successHeaders['Cache-Control'] = header(t.headers.cacheControl, { type: 'string' }, true);
    if (/:\w+/.test(route.path) && kind)
      successHeaders['Last-Modified'] = header(t.headers.lastModified, { type: 'string' });
  }
  if (listing || resolved.shape === 'ndjson')
    successHeaders['X-Changes-Since'] = header(t.headers.changesSince, { type: 'string' });
  const responses: Record<string, unknown> = {
    [created ? '201' : '200']: {
      description: t.statuses[created ? '201' : '200'],
      headers: successHeaders,
      content: successContent(route, method, resolved),
    },
    ...(reading
      ? {
          '304': {
            description: t.statuses['304'],
            headers: { ETag: header(t.headers.etag, { type: 'string' }, true) },
          },
        }
      : {}),
  };
  // Every route validates i18n_language (400) and refuses a bad key (401; 429 after too many);
  // every write needs a key of a strong enough role (403) and is rate-limited (429); any method
  // that takes a body refuses one too large or of another type (413, 415); a request line or
  // headers too large never reach a route (431); whatever reads records is 503 while MongoDB
  // (or, for lists, Elasticsearch) is unavailable.
  const bodyStatuses = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) ? [413, 415] : [];
  const statuses = new Set([
    ...(route.errors ?? []),
    400,
    401,
    429,
    431,
    ...bodyStatuses,
    ...(route.access === 'write' ? [403] : []),
    ...(kind ? [503] : []),
  ]);
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const codes = errorCodes(status, route, kind, listing);
    const headers: Record<string, unknown> = { ...contentLanguage };
    if (status === 401) headers['WWW-Authenticate'] = header(t.headers.wwwAuthenticate, { type: 'string' }, true);
    if (status === 429 || status === 503)
      headers['Retry-After'] = header(t.headers.retryAfter, { type: 'integer' }, true);
    responses[String(status)] = {
      description: `${(status === 410 && expiring(route, listing) ? t.statuses.expired : t.statuses[String(status)]) ?? String(status)}${codes.length ? `. ${t.codes}: ${codes.map((c) => `\`${c}\``).join(', ')}` : ''}`,
      headers,
      content: json(schemaRef('Error')),
    };
  }
  responses.default = { description: t.statuses.default, content: json(schemaRef('Error')) };
  return responses;
}
