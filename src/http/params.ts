import BaseJoi from 'joi';
import { LANGUAGES } from '../../config';
import { checkDateInput, outsideYearsMessage } from '../domain/dates';

const TRUTHY = ['1', 'yes', 'on', 1];
const FALSY = ['0', 'no', 'off', 0];

/**
 * Joi with the parameter forms of CONTRACT part 2: `list` accepts a JSON array, repeated `a[]=`
 * values or a comma-separated string; `flag` accepts true/false, 1/0, yes/no, on/off in any case;
 * `dateInput` accepts the date forms of part 2 and keeps the text for time-zone-aware parsing.
 */
export const Joi = BaseJoi.extend(
  (joi) => ({
    type: 'list',
    base: joi.array(),
    coerce: {
      from: 'string',
      method: (value: string) => ({
        value: value
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== ''),
      }),
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
    messages: { 'string.maxChars': '{{#label}} length must be less than or equal to {{#limit}} characters long' },
    rules: {
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
) as typeof BaseJoi & {
  list(): BaseJoi.ArraySchema;
  flag(): BaseJoi.BooleanSchema;
  dateInput(): BaseJoi.StringSchema;
};

/** Strings of this Joi also have `maxChars(limit)`: a length in characters, not UTF-16 units. */
type CharCountedString = BaseJoi.StringSchema & { maxChars(limit: number): BaseJoi.StringSchema };

export const language = () =>
  Joi.string()
    .valid(...LANGUAGES)
    .description('Content language (en, fr, de)');

/** A positive integer ID. */
export const id = () => Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER);

export const idList = () => Joi.list().items(id()).max(100);

/** Text fields: bounded, no control characters except newline and tab. */
export const text = (max = 1000) =>
  (Joi.string() as CharCountedString)
    .maxChars(max)
    // eslint-disable-next-line no-control-regex
    .pattern(/^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/, 'printable text')
    .allow('');

export const url = () =>
  Joi.string()
    .max(2000)
    .uri({ scheme: ['http', 'https'] });
