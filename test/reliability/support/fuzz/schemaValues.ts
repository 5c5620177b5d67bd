import fc from 'fast-check';

export type Schema = Record<string, any>;

const DATES = [
  '2031-06-01 19:00:00',
  '2031-06-01',
  '2031-06-01T19:00:00Z',
  '2031-06-01T19:00:00+02:00',
  '1950000000',
  'now',
  'tomorrow',
  '+3 days',
  '-1 week',
];
const FLAGS = [true, false, 'true', 'false', '1', '0', 'yes', 'no', 'on', 'off', 'TRUE'];

/** Resolves `$ref`s to `#/components/schemas/...` (one level of document). */
export function resolve(schema: Schema, doc: Schema): Schema {
  let current = schema;
  for (let hops = 0; current?.$ref && hops < 10; hops++) {
    const parts = String(current.$ref).replace(/^#\//, '').split('/');
    current = parts.reduce<any>((node, part) => node?.[part], doc);
  }
  return current ?? {};
}

function stringValue(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.format === 'uri')
    return fc.oneof(fc.webUrl({ validSchemes: ['http', 'https'] }), fc.constant('https://example.org/a.png'));
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.example !== undefined && /^\d{4}-\d\d-\d\d/.test(String(schema.example))) return fc.constantFrom(...DATES);
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 40, 40));
  return fc.oneof(
    fc.string({ minLength: Math.max(min, 1), maxLength: max }).filter((s) => s.trim().length >= min),
    fc.constantFrom('Jazz night', 'Fête de la musique', 'Straße', 'Concert'),
  );
}

function numberValue(schema: Schema, integer: boolean): fc.Arbitrary<unknown> {
  const min = schema.minimum ?? -1_000_000;
  const max = Math.min(schema.maximum ?? 1_000_000, 1_000_000_000);
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(Math.max(min, max)) })
    : fc.double({ min, max: Math.max(min, max), noNaN: true, noDefaultInfinity: true });
}

/** Values that conform to `schema` (what a careful client sends). */
export function validValue(schema: Schema, doc: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, doc);
  const options = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  let arbitrary: fc.Arbitrary<unknown>;
  if (options?.length) arbitrary = fc.oneof(...options.map((option) => validValue(option, doc, depth + 1)));
  else if (s.type === 'string') arbitrary = stringValue(s);
  else if (s.type === 'integer') arbitrary = numberValue(s, true);
  else if (s.type === 'number') arbitrary = numberValue(s, false);
  else if (s.type === 'boolean') arbitrary = fc.constantFrom<unknown>(...FLAGS);
  else if (s.type === 'array')
    arbitrary = depth > 3 ? fc.constant([]) : fc.array(validValue(s.items ?? {}, doc, depth + 1), { maxLength: 3 });
  else if (s.type === 'object' || s.properties)
    arbitrary = depth > 3 ? fc.constant({}) : validObject(s, doc, depth + 1);
  else arbitrary = fc.constantFrom<unknown>('x', 1, true);
  return s.nullable ? fc.oneof({ weight: 5, arbitrary }, { weight: 1, arbitrary: fc.constant(null) }) : arbitrary;
}

/** An object with a random subset of `schema`'s properties (required ones always present). */
export function validObject(schema: Schema, doc: Schema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const s = resolve(schema, doc);
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const shape = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, validValue(property, doc, depth)]),
  );
  return fc.record(shape, { requiredKeys: (s.required as string[] | undefined) ?? [] }) as fc.Arbitrary<
    Record<string, unknown>
  >;
}
