import type { JoiDescription } from './describe';
import type { DocTexts } from './openapiText';

/** An OpenAPI 3.0 schema object (kept loose: it is serialised, never interpreted here). */
export type Schema = Record<string, unknown>;

interface Rule {
  name: string;
  args?: Record<string, unknown>;
}

interface Description extends Omit<JoiDescription, 'rules' | 'items' | 'keys' | 'matches'> {
  flags?: JoiDescription['flags'] & { unknown?: boolean };
  rules?: Rule[];
  invalid?: unknown[];
  examples?: unknown[];
  items?: Description[];
  keys?: Record<string, Description>;
  matches?: { schema?: Description; then?: Description; otherwise?: Description }[];
}

/** Words that show a field description already names the accepted forms of a date, flag or list. */
const NOTE_MARKERS: Record<string, RegExp> = { dateInput: /ISO 8601/, flag: /yes\/no/, list: /comma/ };

const limit = (rule: Rule): unknown => rule.args?.limit;

/** `/^abc$/` as joi describes it → `^abc$`; null for flagged or named patterns (shown as words instead). */
function patternOf(rule: Rule): string | null {
  const regex = String(rule.args?.regex ?? '');
  const options = rule.args?.options as { name?: string; invert?: boolean } | undefined;
  const match = /^\/(.*)\/([a-z]*)$/s.exec(regex);
  if (!match || match[2] || options?.name || options?.invert) return null;
  return match[1]!;
}

function stringSchema(d: Description): Schema {
  const schema: Schema = { type: 'string' };
  for (const rule of d.rules ?? []) {
    if (rule.name === 'min') schema.minLength = limit(rule);
    else if (rule.name === 'max' || rule.name === 'maxChars') schema.maxLength = limit(rule);
    else if (rule.name === 'length') schema.minLength = schema.maxLength = limit(rule);
    else if (rule.name === 'uri' || rule.name === 'httpUrl') schema.format = 'uri';
    else if (rule.name === 'email') schema.format = 'email';
    else if (rule.name === 'isoDate') schema.format = 'date-time';
    else if (rule.name === 'guid') schema.format = 'uuid';
    else if (rule.name === 'pattern') {
      const pattern = patternOf(rule);
      if (pattern) schema.pattern = pattern;
    }
  }
  // joi refuses an empty string unless it is allowed (an enum says what is, by itself).
  if (!d.allow?.includes('') && !d.flags?.only && schema.minLength === undefined) schema.minLength = 1;
  return schema;
}

function numberSchema(d: Description): Schema {
  const integer = d.rules?.some((r) => r.name === 'integer');
  const schema: Schema = { type: integer ? 'integer' : 'number' };
  for (const rule of d.rules ?? []) {
    if (rule.name === 'min') schema.minimum = limit(rule);
    else if (rule.name === 'max') schema.maximum = limit(rule);
    else if (rule.name === 'greater') Object.assign(schema, { minimum: limit(rule), exclusiveMinimum: true });
    else if (rule.name === 'less') Object.assign(schema, { maximum: limit(rule), exclusiveMaximum: true });
    else if (rule.name === 'sign' && rule.args?.sign === 'positive' && schema.minimum === undefined) {
      Object.assign(schema, { minimum: 0, exclusiveMinimum: true });
    } else if (rule.name === 'sign' && rule.args?.sign === 'negative' && schema.maximum === undefined) {
      Object.assign(schema, { maximum: 0, exclusiveMaximum: true });
    }
  }
  return schema;
}

function arraySchema(d: Description, t: DocTexts): Schema {
  const items = (d.items ?? []).map((item) => joiToSchema(item, t));
  const schema: Schema = {
    type: 'array',
    items: items.length === 1 ? items[0] : items.length > 1 ? { anyOf: items } : {},
  };
  for (const rule of d.rules ?? []) {
    if (rule.name === 'min') schema.minItems = limit(rule);
    else if (rule.name === 'max') schema.maxItems = limit(rule);
    else if (rule.name === 'length') schema.minItems = schema.maxItems = limit(rule);
    else if (rule.name === 'unique') schema.uniqueItems = true;
  }
  return schema;
}

/** Properties and `required` of an object description. */
export function objectSchema(d: Description, t: DocTexts): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [name, key] of Object.entries(d.keys ?? {})) {
    properties[name] = joiToSchema(key, t);
    if (key.flags?.presence === 'required') required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function alternativesSchema(d: Description, t: DocTexts): Schema {
  const branches = (d.matches ?? [])
    .flatMap((m) => [m.schema, m.then, m.otherwise])
    .filter((b): b is Description => b !== undefined)
    .map((b) => joiToSchema(b, t));
  if (branches.length === 1) return branches[0]!;
  return branches.length ? { anyOf: branches } : {};
}

function baseSchema(d: Description, t: DocTexts): { schema: Schema; note?: string } {
  switch (d.type) {
    case 'string':
      return { schema: stringSchema(d) };
    case 'dateInput':
      return { schema: { ...stringSchema(d), example: '2025-06-01 19:00:00' }, note: t.forms.date };
    case 'number':
      return { schema: numberSchema(d) };
    case 'boolean':
      return { schema: { type: 'boolean' } };
    case 'flag':
      return { schema: { type: 'boolean' }, note: t.forms.flag };
    case 'list':
      return { schema: arraySchema(d, t), note: t.forms.list };
    case 'array':
      return { schema: arraySchema(d, t) };
    case 'object':
      return { schema: objectSchema(d, t) };
    case 'alternatives':
      return { schema: alternativesSchema(d, t) };
    case 'date':
      return { schema: { type: 'string', format: 'date-time' } };
    default:
      return { schema: {} };
  }
}

/** Joins texts as sentences: `a` + `b` → `a. b` (no doubled punctuation). */
export function sentences(...texts: (string | undefined)[]): string {
  return texts
    .filter((text): text is string => Boolean(text))
    .map((text, i, all) => (i < all.length - 1 && !/[.!?:;)]$/.test(text) ? `${text}.` : text))
    .join(' ');
}

/** Marks a schema (or each typed branch of an anyOf) nullable; OpenAPI 3.0 needs a `type` beside it. */
function makeNullable(schema: Schema): void {
  if (schema.type) schema.nullable = true;
  else if (Array.isArray(schema.anyOf)) for (const branch of schema.anyOf as Schema[]) makeNullable(branch);
}

/**
 * The OpenAPI 3.0 schema of a joi description: type, bounds, format, enum, default, nullable and
 * description, plus a sentence on the accepted forms of `Joi.list/flag/dateInput` (CONTRACT part 2).
 */
export function joiToSchema(d: Description | JoiDescription, t: DocTexts): Schema {
  const described = d as Description;
  const { schema, note } = baseSchema(described, t);
  const flags = described.flags ?? {};
  const allowed = described.allow ?? [];
  if (flags.only && allowed.length) {
    const values = allowed.filter((v) => v !== null);
    if (values.length) schema.enum = values;
  }
  if (allowed.includes(null)) makeNullable(schema);
  const fallback = flags.default;
  if (fallback !== undefined && fallback !== null && typeof fallback !== 'function' && typeof fallback !== 'object')
    schema.default = fallback;
  else if (Array.isArray(fallback)) schema.default = fallback;
  if (described.examples?.length) schema.example = described.examples[0];
  // A field description that already spells out the accepted forms needs no second sentence.
  const explained = NOTE_MARKERS[described.type]?.test(flags.description ?? '');
  const text = sentences(flags.description, explained ? undefined : note);
  if (text) schema.description = text;
  return schema;
}

export type { Description as SchemaDescription };
