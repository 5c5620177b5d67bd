import fc from 'fast-check';
import qs from 'qs';
import { HOSTILE_ID_SEGMENTS, HOSTILE_SLUG_SEGMENTS, hostileValue, rawJsonBody } from './hostile';
import { resolve, validObject, validValue, type Schema } from './schemaValues';

export const ROOT = '/calendar/events/v1';

/** One operation of the OpenAPI document. */
export interface Operation {
  method: string;
  template: string;
  operation: Schema;
}

/** Records that exist now, for path parameters and links that resolve. */
export interface Targets {
  ids: Record<string, number[]>;
  slugs: Record<string, string[]>;
  /** Occurrences of the recurring events among `ids.events`. */
  recurrenceIds?: string[];
}

export interface FuzzRequest {
  op: string;
  method: string;
  /** Path and query string, sent exactly as is. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What was unusual about it, for failure messages. */
  note: string;
}

const SIBLINGS: Record<string, string> = {
  events: 'venues',
  venues: 'organizers',
  organizers: 'events',
  categories: 'tags',
  tags: 'categories',
};
const WRITES = new Set(['POST', 'PUT', 'PATCH']);

export function operationsOf(doc: Schema): Operation[] {
  return Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), template, operation })),
  );
}

const pick = <T>(values: T[], fallback: T): fc.Arbitrary<T> =>
  values.length ? fc.constantFrom(...values) : fc.constant(fallback);

function idSegment(plural: string, targets: Targets): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: pick(targets.ids[plural] ?? [], 1).map(String) },
    { weight: 1, arbitrary: pick(targets.ids[SIBLINGS[plural] ?? ''] ?? [], 2).map(String) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 ** 40 }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_ID_SEGMENTS) },
  );
}

function recurrenceIdSegment(targets: Targets): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: pick(targets.recurrenceIds ?? [], '20270105T090000Z') },
    { weight: 1, arbitrary: fc.constantFrom('99991231T235959Z', '00000000T000000Z', '20270230T250000Z', '20270105') },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_ID_SEGMENTS) },
  );
}

function slugSegment(plural: string, targets: Targets): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: pick(targets.slugs[plural] ?? [], 'none').map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent) },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SLUG_SEGMENTS) },
  );
}

/** A value for one parameter: mostly valid, sometimes hostile. */
function paramValue(schema: Schema, doc: Schema): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: validValue(schema, doc) }, { weight: 1, arbitrary: hostileValue() });
}

/** Links of an event write that resolve (or half resolve): inline records next to bad IDs, term names... */
function eventLinks(targets: Targets): fc.Arbitrary<Record<string, unknown>> {
  const anyId = (plural: string) => pick(targets.ids[plural] ?? [], 1);
  return fc.record(
    {
      venue: fc.oneof(
        anyId('venues'),
        fc.constant({ venue: 'Inline fuzz hall' }),
        fc.tuple(anyId('venues'), fc.constant({ venue: 'Inline hall 2' })),
      ),
      organizer: fc.oneof(
        fc.tuple(anyId('organizers')),
        fc.constant([{ organizer: 'Inline fuzz crew' }, 987_654_321]),
        fc.constant([{ organizer: 'Inline crew 2' }, { organizer: '' }]),
      ),
      categories: fc.oneof(
        fc.tuple(anyId('categories')),
        fc.constant(['Fuzz category', 987_654_321]),
        fc.constant(['New fuzz term']),
      ),
      tags: fc.oneof(
        fc.tuple(anyId('tags')),
        fc.constant(['fuzz tag', { $gt: '' }]),
        fc.constant(['late', 'x'.repeat(300)]),
      ),
      post_parent: fc.oneof(anyId('events'), anyId('venues'), fc.constant(987_654_321)),
    },
    { requiredKeys: [] },
  );
}

/** A body value: valid fields with a few replaced by hostile values and odd keys added. */
function bodyObject(
  schema: Schema,
  doc: Schema,
  plural: string,
  targets: Targets,
): fc.Arbitrary<{ value: Record<string, unknown>; note: string }> {
  const fields = Object.keys(resolve(schema, doc).properties ?? {});
  return fc
    .tuple(
      validObject(schema, doc),
      plural === 'events' ? fc.option(eventLinks(targets), { freq: 3 }) : fc.constant(null),
      fc.array(fc.tuple(fc.constantFrom(...fields, 'i18n_language'), hostileValue()), { maxLength: 2 }),
      fc.option(
        fc.tuple(
          fc.constantFrom('$where', '$gt', '__proto__', 'constructor', 'a.b', '', 'x'.repeat(5_000)),
          hostileValue(),
        ),
        { freq: 6 },
      ),
    )
    .map(([valid, links, mutations, oddKey]) => {
      const value: Record<string, unknown> = { ...valid, ...(links ?? {}) };
      for (const [field, hostile] of mutations) value[field] = hostile;
      if (oddKey)
        Object.defineProperty(value, oddKey[0], {
          value: oddKey[1],
          enumerable: true,
          writable: true,
          configurable: true,
        });
      const note = [
        links ? 'links' : '',
        ...mutations.map(([field]) => `hostile ${field}`),
        oddKey ? `key ${oddKey[0].slice(0, 20)}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      return { value, note };
    });
}

function multipart(value: Record<string, unknown>): { body: Buffer; contentType: string } {
  const boundary = `----fuzz${Math.random().toString(36).slice(2)}`;
  const parts = Object.entries(value).map(
    ([name, field]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/"/g, '%22')}"\r\n\r\n${typeof field === 'string' ? field : JSON.stringify(field)}\r\n`,
  );
  return {
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

type Encoded = { body?: string | Buffer; contentType?: string; note: string };

function encodeBody(value: Record<string, unknown>): fc.Arbitrary<Encoded> {
  return fc.oneof(
    {
      weight: 12,
      arbitrary: fc.constant<Encoded>({ body: JSON.stringify(value), contentType: 'application/json', note: 'json' }),
    },
    {
      weight: 2,
      arbitrary: fc.constant<Encoded>({
        body: qs.stringify(shallow(value)),
        contentType: 'application/x-www-form-urlencoded',
        note: 'form',
      }),
    },
    { weight: 1, arbitrary: fc.constant<Encoded>({ ...multipart(value), note: 'multipart' }) },
    {
      weight: 3,
      arbitrary: rawJsonBody(value).map<Encoded>(({ text, note }) => ({
        body: text,
        contentType: 'application/json',
        note,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Encoded>(
        { body: JSON.stringify(value), contentType: 'text/plain', note: 'text/plain' },
        { body: '<event><title>x</title></event>', contentType: 'application/xml', note: 'xml' },
        { body: JSON.stringify(value), contentType: 'application/json; charset=utf-16', note: 'utf-16 charset' },
        {
          body: Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0xc3, 0x28]),
          contentType: 'application/json',
          note: 'invalid UTF-8',
        },
        { body: '--x\r\nbroken', contentType: 'multipart/form-data; boundary=y', note: 'broken multipart' },
        {
          body: 'a=1&a[$gt]=2&__proto__[polluted]=yes&constructor[prototype][polluted]=yes',
          contentType: 'application/x-www-form-urlencoded',
          note: 'form pollution',
        },
        { body: undefined, contentType: 'application/json', note: 'no body' },
      ),
    },
  );
}

/** Query values nested deeper than the server parses (qs depth 3) are cut, so that the client can encode them. */
function shallow(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 8) return 'deep';
  if (Array.isArray(value)) return value.map((item) => shallow(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shallow(v, depth + 1)]));
}

const RAW_QUERY_SUFFIXES = [
  '',
  '',
  '',
  '&%zz=1',
  '&search=%E0%A4%A',
  '&__proto__[polluted]=yes',
  '&constructor[prototype][polluted]=yes',
  '&a[b][c][d][e][f][g]=1',
  '&page[$gt]=1',
  '&i18n_language[]=en&i18n_language[]=fr',
  `&${Array.from({ length: 600 }, (_, i) => `p${i}=1`).join('&')}`,
  `&search=${'a'.repeat(20_000)}`,
];

function authorization(write: boolean, key: string): fc.Arbitrary<Record<string, string>> {
  const bad = fc.constantFrom(
    'Bearer nope',
    'Bearer ',
    `Bearer ${'a'.repeat(9_000)}`,
    'Basic Zm9vOmJhcg==',
    `Bearer cal_${'A'.repeat(43)}`,
    'Bearer \tx',
    'bearer  ' + 'x'.repeat(43),
  );
  return fc.oneof(
    { weight: write ? 16 : 3, arbitrary: fc.constant({ Authorization: `Bearer ${key}` }) },
    { weight: write ? 1 : 12, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: bad.map((value) => ({ Authorization: value })) },
  );
}

/** Requests for `op`: path, query, body and headers generated from the document, then mutated. */
export function requestsFor(op: Operation, doc: Schema, targets: Targets, key: string): fc.Arbitrary<FuzzRequest> {
  const plural = op.template.split('/')[1] ?? '';
  const write = WRITES.has(op.method);
  const pathParams = fc.record({
    id: idSegment(plural, targets),
    slug: slugSegment(plural, targets),
    recurrence_id: recurrenceIdSegment(targets),
    file: fc.constantFrom('swagger-ui.css', 'swagger-ui-bundle.js', '..%2Fpackage.json', '%2e%2e', 'x'),
  });
  const queryParams = (op.operation.parameters as Schema[]).filter((p) => p.in === 'query');
  const query = fc.record(
    Object.fromEntries(queryParams.map((p) => [p.name as string, paramValue(p.schema ?? {}, doc)])),
    { requiredKeys: [] },
  );
  const bodySchema = op.operation.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const body =
    write && bodySchema
      ? bodyObject(bodySchema, doc, plural, targets).chain(({ value, note }) =>
          encodeBody(value).map((e) => ({ ...e, note: `${e.note}${note ? `; ${note}` : ''}` })),
        )
      : fc.constant<Encoded>({ note: '' });
  return fc
    .record({
      prefix: fc.constantFrom('', '', '', '/fr', '/de', '/en', '/xx'),
      pathParams,
      query: write ? fc.option(query, { freq: 5 }) : query,
      arrayFormat: fc.constantFrom<'brackets' | 'comma' | 'repeat' | 'indices'>(
        'brackets',
        'comma',
        'repeat',
        'indices',
      ),
      suffix: fc.constantFrom(...RAW_QUERY_SUFFIXES),
      body,
      auth: authorization(write || op.method === 'DELETE', key),
      requestId: fc.constantFrom<string | undefined>(
        undefined,
        undefined,
        undefined,
        '../../x',
        'a'.repeat(500),
        'ok-id',
      ),
    })
    .map(({ prefix, pathParams: params, query: q, arrayFormat, suffix, body: encoded, auth, requestId }) => {
      const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) => params[name as keyof typeof params]);
      const queryString = `${q ? qs.stringify(shallow(q), { arrayFormat }) : ''}${suffix}`.replace(/^&/, '');
      const headers: Record<string, string> = { ...auth };
      if (encoded.contentType && encoded.body !== undefined) headers['Content-Type'] = encoded.contentType;
      if (requestId) headers['X-Request-Id'] = requestId;
      return {
        op: `${op.method} ${op.template}`,
        method: op.method,
        path: `${prefix}${ROOT}${path === '/' ? '' : path}${queryString ? `?${queryString}` : ''}`,
        headers,
        body: encoded.body,
        note: [encoded.note, suffix ? `query suffix ${suffix.slice(0, 30)}` : ''].filter(Boolean).join('; '),
      };
    });
}
