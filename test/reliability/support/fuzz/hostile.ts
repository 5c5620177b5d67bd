import fc from 'fast-check';

/** Search strings without a single word: as text they match nothing (as a query, `*` matches everything). */
export const WORDLESS_SEARCHES = [
  '*',
  '?',
  '/.*/',
  '\\"',
  '{}',
  '[* *]',
  '(((((',
  '\\',
  '&& || !',
  '+-=&&||><!(){}[]^"~*?:\\/',
  '*:*',
];

/** Elasticsearch / Lucene query syntax, wildcards and regexes: must be searched as plain text. */
export const SEARCH_SYNTAX = [
  ...WORDLESS_SEARCHES,
  '/[a-z]+/',
  // Range syntax around a real word: "to" may match a record that holds the word (or, for
  // type-ahead, a name starting with it), so only the answer's status and time are checked.
  '[* TO *]',
  'AND OR NOT',
  'title:*',
  '_id:1 OR _exists_:title',
  '"unterminated',
  '{"query":{"match_all":{}}}',
  'a~10',
  'a^1000',
  'status:draft',
];

/** Values of the discovery parameters of `GET /events` (EXTENSIONS part 14) at and past their edges. */
export const HOSTILE_DISCOVERY: Record<string, string[]> = {
  facets: [
    'venue,__proto__',
    '$where',
    'categories,'.repeat(500),
    '[1,2]',
    '{"a":1}',
    'VENUE,%20Tags',
    ',',
    'featured,featured',
  ],
  histogram: ['DAY', 'year', '%20week%20', 'hour', '%00', '1d'],
  tz: [
    '../../etc/passwd',
    'Europe/Paris%00',
    'Etc/GMT%2B14',
    '%2B05:00',
    'a'.repeat(100),
    'Z',
    'local',
    'EST5EDT',
    'America/Ciudad_Juarez',
    'Antarctica/Troll',
    'America/Coyhaique',
    'europe/PARIS',
  ],
  geo_grid: ['29', '30', '1e1', '0x1f', '-0', '%205', '999999999999999999999', 'NaN'],
  geoloc_bounds: [
    '90,-180,-90,180',
    '90,180,-90,-180',
    '0,0,0,0',
    '-0,-0,-0,-0',
    'NaN,1,2,3',
    'Infinity,0,0,0',
    '1e309,0,0,0',
    '[1,2,3,4]',
    '1,2,3,4,5',
    ',,,',
    '10,179.999999,-10,-179.999999',
  ],
};

/** Slug-route hostility, inserted into the path as is (already percent-encoded where needed). */
export const HOSTILE_SLUG_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  'x%00y',
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%FF%FE',
  '%24where',
  '%7B%22%24gt%22%3A%22%22%7D',
  encodeURIComponent('🎉'.repeat(50)),
  'a'.repeat(5_000),
  encodeURIComponent('\u202Eevil'),
  '%20',
  '__proto__',
  'constructor',
];

/** ID-route hostility (not only digits: those are 404 `rest_no_route`). */
export const HOSTILE_ID_SEGMENTS = [
  '0',
  '-1',
  '1e3',
  '0x10',
  '99999999999999999999999',
  '9007199254740993',
  '1.5',
  '%31',
  '00001',
  '1%00',
];

const CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('');

/** Strings that break naive code: control characters, broken surrogates, direction overrides... */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\t\n',
  CONTROL,
  'a\u0000b',
  '\uD800',
  '\uDC00x\uD800',
  '\u202E\u2066',
  '\uFEFF',
  '\u200B\u200C\u200D',
  'İıß\uFB00',
  'e\u0301\u0301\u0301\u0301',
  '🎉👩‍👩‍👧‍👦',
  '\uFFFF\uFFFE',
  '<script>alert(1)</script>',
  '<a href="javascript:alert(1)" onclick="x()">x</a>',
  "'; DROP TABLE events; --",
  '$where',
  '$gt',
  'sleep(1000)',
  '${process.exit(1)}',
  '{{7*7}}',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '__proto__',
  'constructor',
  'prototype',
  '../../etc/passwd',
  'a'.repeat(1_001),
  'é'.repeat(300),
  ...SEARCH_SYNTAX,
];

/** MongoDB operator objects where scalars are expected (CONTRACT part 2: a 400, never a query). */
export const OPERATOR_OBJECTS: unknown[] = [
  { $gt: '' },
  { $ne: null },
  { $where: 'sleep(1000) || true' },
  { $regex: '.*' },
  { $in: [1, 2, 3] },
  { $expr: { $eq: [1, 1] } },
  { $exists: true },
  [{ $gt: 0 }],
];

/** Prototype-pollution shapes (as values; keys are sent raw in JSON text, see `pollutionBodies`). */
export const POLLUTION_OBJECTS: unknown[] = [
  { __proto__: { polluted: 'yes' } },
  JSON.parse('{"__proto__":{"polluted":"yes"}}'),
  { constructor: { prototype: { polluted: 'yes' } } },
  { prototype: { polluted: 'yes' } },
];

function nested(depth: number, leaf: unknown, asArray: boolean): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** Values of every wrong shape: wrong types, empty, huge, deep, nasty text, operators, pollution. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      -1e308,
      1e308,
      Number.MAX_SAFE_INTEGER + 2,
      [],
      {},
      [[[]]],
      [null],
      ['a', 1, null],
    ),
    fc.constantFrom(...NASTY_STRINGS),
    fc.constantFrom(...OPERATOR_OBJECTS),
    fc.constantFrom(...POLLUTION_OBJECTS),
    fc.constantFrom(nested(300, 'deep', false), nested(500, 1, true), nested(40, { $gt: '' }, false)),
    fc.constantFrom('x'.repeat(100_000), '9'.repeat(5_000), `${'<p>'.repeat(2_000)}text`),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.array(fc.string({ unit: 'binary', maxLength: 8 }), { maxLength: 200 }),
    fc.dictionary(fc.constantFrom('$gt', '__proto__', 'constructor', 'a.b', '$where', ''), fc.string(), { maxKeys: 3 }),
  );
}

/** Raw JSON texts that are malformed, of the wrong shape, or carry pollution keys literally. */
export function rawJsonBody(valid: Record<string, unknown>): fc.Arbitrary<{ text: string; note: string }> {
  const json = JSON.stringify(valid);
  return fc.constantFrom(
    { text: '{"title":', note: 'truncated JSON' },
    { text: "{'title': 'x'}", note: 'single quotes' },
    { text: '{"a":1,}', note: 'trailing comma' },
    { text: 'NaN', note: 'NaN' },
    { text: '[', note: 'open array' },
    { text: '[]', note: 'array body' },
    { text: '[{"title":"x"}]', note: 'array of objects' },
    { text: '"just a string"', note: 'string body' },
    { text: '12', note: 'number body' },
    { text: 'null', note: 'null body' },
    { text: 'true', note: 'boolean body' },
    { text: '', note: 'empty body' },
    { text: `\uFEFF${json}`, note: 'BOM before JSON' },
    { text: json.replace('{', '{"__proto__":{"polluted":"yes"},'), note: '__proto__ key' },
    { text: json.replace('{', '{"constructor":{"prototype":{"polluted":"yes"}},'), note: 'constructor.prototype key' },
    { text: json.replace('{', '{"title":{"$gt":""},"status":{"$ne":null},'), note: 'operator values' },
    { text: `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, note: 'nesting 100k deep' },
    { text: `{"description":"${'x'.repeat(1_100_000)}"}`, note: 'over 1 MiB' },
    { text: `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`, note: '20k keys' },
    { text: json.replace('}', ',"title":"dup"}'), note: 'duplicate key' },
    { text: '{"title":"\\ud800"}', note: 'lone surrogate escape' },
    { text: '{"title":"\u0000"}', note: 'raw NUL in string' },
  );
}
