import BaseJoi from 'joi';
import { LANGUAGES, type Language } from '../../config';
import { checkDateInput, outsideYearsMessage } from '../domain/dates';
import { slugify } from '../domain/slug';

const INTEGER_TEXT = /^\s*([+-]?\d+)?\s*$/;
const TRUTHY = ['1', 'yes', 'on', 1];
const FALSY = ['0', 'no', 'off', 0];

/** `[2,3]` or `["jazz","rock"]` sent as text (a query string's JSON array), else undefined. */
function jsonArrayIn(text: string): unknown[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') || !trimmed.endsWith(']')) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Joi with the parameter forms of CONTRACT part 2: integers sent as text must be digits; `list`
 * accepts a JSON array (also written as text: `a=[1,2]` in a query string or a form), repeated
 * `a[]=` values or a comma-separated string; `flag` accepts
 * true/false, 1/0, yes/no, on/off in any case; `dateInput` accepts the date forms of part 2 and
 * keeps the text for time-zone-aware parsing.
 */
export const Joi = BaseJoi.extend(
  (joi) => ({
    type: 'list',
    base: joi.array(),
    coerce: {
      from: 'string',
      method: (value: string) => ({
        value:
          jsonArrayIn(value) ??
          value
            .split(',')
            .map((part) => part.trim())
            .filter((part) => part !== ''),
      }),
    },
  }),
  (joi) => ({
    // Integers sent as text are digits (`page=1e1`, `0x10` or `10.0` is no page number).
    type: 'number',
    base: joi.number(),
    prepare(value: unknown, helpers) {
      // "" clears a clearable number, as null does (the only way a form can clear it).
      if (value === '' && helpers.schema.$_getFlag('clearable')) return { value: null };
      if (typeof value !== 'string' || !helpers.schema.$_getRule('integer') || INTEGER_TEXT.test(value))
        return { value };
      return { value, errors: [helpers.error('number.integer')] };
    },
    rules: {
      clearable: {
        method() {
          return (this as BaseJoi.NumberSchema).allow(null).$_setFlag('clearable', true);
        },
      },
    },
  }),
  (joi) => ({
    type: 'flag',
    base: joi
      .boolean()
      .truthy(...TRUTHY)
      .falsy(...FALSY)
      .sensitive(false),
  }),
  (joi) => ({
    type: 'dateInput',
    base: joi.string().trim().max(100),
    // A unix timestamp as a JSON number is read as its digits (CONTRACT part 2).
    coerce: {
      from: 'number',
      method: (value: number) => ({ value: Number.isFinite(value) ? String(value) : value }),
    },
    messages: {
      'dateInput.format':
        '{{#label}} is not a date (use YYYY-MM-DD HH:MM:SS, ISO 8601, a unix timestamp or now/today/+N days)',
      'dateInput.range': outsideYearsMessage('{{#label}}'),
    },
    validate(value: string, helpers) {
      const problem = checkDateInput(value);
      return problem === 'ok' ? { value } : { value, errors: helpers.error(`dateInput.${problem}`) };
    },
  }),
  (joi) => ({
    type: 'string',
    base: joi.string(),
    messages: {
      'string.maxChars': '{{#label}} length must be less than or equal to {{#limit}} characters long',
      'string.httpUrl': '{{#label}} must be an http(s) URL',
    },
    rules: {
      httpUrl: {
        method() {
          return (this as BaseJoi.Schema).$_addRule({ name: 'httpUrl' });
        },
        validate(value: string, helpers) {
          const stored = httpUrlOf(value);
          return stored ?? helpers.error('string.httpUrl');
        },
      },
      // Characters as people count them: an emoji or a letter outside the BMP is one, not two.
      maxChars: {
        method(limit: number) {
          return (this as BaseJoi.Schema).$_addRule({ name: 'maxChars', args: { limit } });
        },
        args: [{ name: 'limit', assert: (value: unknown) => Number.isInteger(value), message: 'must be an integer' }],
        validate(value: string, helpers, { limit }: { limit: number }) {
          if (value.length <= limit) return value;
          if (value.length <= limit * 2 && [...value].length <= limit) return value;
          return helpers.error('string.maxChars', { limit });
        },
      },
    },
  }),
) as Omit<typeof BaseJoi, 'number'> & {
  list(): BaseJoi.ArraySchema;
  flag(): BaseJoi.BooleanSchema;
  dateInput(): BaseJoi.StringSchema;
  number(): ClearableNumber;
};

/** Numbers of this Joi have `clearable()`: null or "" clears the field (validated as null). */
type ClearableNumber = BaseJoi.NumberSchema & { clearable(): BaseJoi.NumberSchema };

/** Strings of this Joi also have `maxChars(limit)` (characters, not UTF-16 units) and `httpUrl()`. */
type CharCountedString = BaseJoi.StringSchema & { maxChars(limit: number): BaseJoi.StringSchema };
type UrlString = BaseJoi.StringSchema & { httpUrl(): BaseJoi.StringSchema };

/** `i18n_language`, which every route takes (its value is applied by the language middleware). */
export interface LanguageInput {
  i18n_language?: Language;
}

export const language = () =>
  Joi.string()
    .valid(...LANGUAGES)
    .description('Content language (en, fr, de)');

/**
 * A slug parameter: "" regenerates the slug, anything else must keep a letter or a digit once made
 * a slug (`!!!` would otherwise be replaced by the record's ID without a word).
 */
export const sluggable = (schema: BaseJoi.StringSchema): BaseJoi.StringSchema =>
  schema.custom((value: string, helpers) =>
    value === '' || slugify(value) !== ''
      ? value
      : helpers.message({ custom: '{{#label}} must contain a letter or a digit' }),
  );

/** A positive integer ID. */
export const id = () => Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER);

/** An ID, or 0 for none (a parent, an author, a venue to clear). */
export const idOrZero = (): ClearableNumber =>
  Joi.number().integer().min(0).max(Number.MAX_SAFE_INTEGER) as ClearableNumber;

/** Items a list parameter takes at most: filters' IDs and slugs, an event's links. */
export const MAX_LIST_ITEMS = 100;

/** The text of a full-text search (typo-tolerant in its first words, see search/fullText.ts). */
export const searchText = () => text(500);

/**
 * A list filter: sent empty (`include=`, `tags=,`, `[]`) it is left out, as if not sent, as
 * WordPress does (`status=` means the default statuses).
 */
export const filterList = (): BaseJoi.ArraySchema => Joi.list().empty(Joi.array().length(0));

/** The largest ID a search index holds (its ID fields are integers): a list filter's IDs are at most this. */
export const MAX_INDEXED_ID = 2_147_483_647;

export const idList = () => filterList().items(id().max(MAX_INDEXED_ID)).max(MAX_LIST_ITEMS);

/** Text fields: bounded, no control characters except newline and tab. */
export const text = (max = 1000) =>
  (Joi.string() as CharCountedString)
    .maxChars(max)
    // eslint-disable-next-line no-control-regex
    .pattern(/^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/, 'printable text')
    // Joi's message would quote the value: a password, or 100,000 characters.
    .messages({ 'string.pattern.name': '{{#label}} must not contain control characters' })
    .allow('');

// Spelled out, with no spaces or backslashes: WHATWG parsing would read `http:example.org` or
// `https:\\host` as URLs, and a space is more likely a typo than part of the address.
const HTTP_URL_SHAPE = /^https?:\/\/[^\s\\]+$/i;
/** The characters RFC 3986 allows in a URI: what is stored, so responses are valid `format: uri`. */
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;
const isUri = (value: string) => URI_CHARACTERS.test(value) && !/%(?![0-9A-Fa-f]{2})/.test(value);

/**
 * An http(s) URL as it is stored, or null when `value` is not one: parsed as browsers do, so
 * an upper-case scheme or an internationalised host or path is accepted. URLs made of URI
 * characters are kept as sent; others are stored in their encoded form (punycode host,
 * percent-encoded path), or refused when even that is not a URI.
 */
export function httpUrlOf(value: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (!HTTP_URL_SHAPE.test(value) || /[\u0000-\u001F\u007F]/.test(value)) return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return null;
  }
  if (parsed.hostname === '') return null;
  const stored = isUri(value) ? value : parsed.href;
  return isUri(stored) ? stored : null;
}

export const url = () => (Joi.string() as UrlString).max(2000).httpUrl();
