/**
 * What events, venues and organizers ("posts") share on the write side.
 *
 * Schema pieces (joi; every key carries a description, the docs are generated from them):
 *   - `postWriteKeys(label)`  → keys author, date, date_utc, status, slug, description, excerpt,
 *                               image. Spread into the kind's write schema.
 *   - `nameText(max, what)`    → the kind's required name (title / venue / organizer): may be
 *                               omitted on update, never cleared with null or "" (400).
 *   - `optionalText(max, what)`, `optionalUrl(what)`, `optionalFlag(what)`, `optionalEmail(what)`
 *                             → clearable fields: null or "" clear them.
 *
 * Content mapping (validated input → stored fields; only the fields that were sent):
 *   - `postContent(input, existing, context)` → status, author, date, slug, description, excerpt,
 *     image. Rich text is sanitised, dates parsed (`date` in the site zone, `date_utc` in UTC;
 *     `date_utc` wins when both are sent). A slug sent as null or "" is regenerated from the name.
 *     On create (`existing === null`) it also applies the defaults: status `publish`,
 *     author = the caller's user ID, date = now.
 *   - `postContext(services, ctx, nameField)` builds that `context` from a request.
 *   - `assertKnownAuthor(services, input, principal)`: an `author` must be a user (a key holder).
 *   - `clearable(input, fields)` copies plain optional fields that were sent, "" → null.
 *
 * Typical content of a post (`planContent: ready(toVenueContent)` in a resource definition):
 *   {
 *     ...postContent(input, existing, postContext(services, ctx, 'venue')),
 *     ...clearable(input, ['address', 'city']),
 *   }
 */
import type { DateTime } from 'luxon';
import type { Language } from '../../../config';
import { DateOutOfRangeError, isWithinSupportedYears, parseDateInput, refusedDateMessage } from '../../domain/dates';
import { safeRichText } from '../../domain/html';
import { ValidationError } from '../../domain/errors';
import { idOrZero, Joi, sluggable, text, url } from '../../http/params';
import type { InputKeys } from '../../http/route';
import type { AppContext } from '../../http/types';
import type { Principal } from '../../domain/principal';
import type { Services } from '../../services/container';
import { inLanguage, type StoredRecord } from '../../storage/storedRecord';
import type { PostDoc } from '../../storage/stores';
import type { Status } from '../../domain/status';

/** The write fields every post kind accepts (interface.md 2.1-2.3), as validated. */
export interface PostWriteInput {
  author?: number | null;
  date?: string;
  date_utc?: string;
  status?: Status;
  slug?: string | null;
  description?: string | null;
  excerpt?: string | null;
  image?: string | null;
}

/** Statuses a client may set; `trash` is reached through DELETE only. */
export const WRITABLE_STATUSES: Status[] = ['publish', 'future', 'draft', 'pending', 'private'];

export const RICH_TEXT_MAX = 100_000;
const IMAGE_MESSAGE = '{{#label}} must be an http(s) URL (image IDs are not supported: this service hosts no images)';
const IMAGE_MESSAGES = {
  'string.base': IMAGE_MESSAGE,
  'string.httpUrl': IMAGE_MESSAGE,
};

export const nameText = (max: number, what: string) =>
  text(max)
    .trim()
    .invalid('', null)
    .messages({ 'any.invalid': '{{#label}} is required and cannot be cleared' })
    .description(what);

export const optionalText = (max: number, what: string) =>
  text(max).trim().allow(null).description(`${what}; null or "" clears it`);

export const optionalUrl = (what: string) =>
  url()
    .allow(null, '')
    .messages({
      'string.base': '{{#label}} must be an http(s) URL',
    })
    .description(`${what} (http or https URL); null or "" clears it`);

export const optionalFlag = (what: string) =>
  Joi.flag().allow(null, '').description(`${what} (true/false, 1/0, yes/no, on/off); null or "" clears it`);

export const optionalEmail = (what: string) =>
  Joi.string()
    .trim()
    .max(254)
    .email({ tlds: { allow: false } })
    .allow(null, '')
    .description(`${what} (e-mail address); null or "" clears it`);

/** Write keys every post kind accepts (interface.md 2.1-2.3). */
export function postWriteKeys(label: string): InputKeys<PostWriteInput> {
  return {
    author: idOrZero()
      .clearable()
      .description(`Author: the user ID of an API key holder; defaults to the caller; null or "" clears it (0)`),
    date: Joi.dateInput().description(
      'Publication date in the site time zone (YYYY-MM-DD HH:MM:SS, ISO 8601, unix seconds or now/today/+N days); defaults to now',
    ),
    date_utc: Joi.dateInput().description('Publication date in UTC; wins over `date` when both are sent'),
    status: Joi.string()
      .valid(...WRITABLE_STATUSES)
      .description(`Post status; default publish. A ${label} is trashed with DELETE, not through this field`),
    slug: sluggable(text(200).trim())
      .allow(null)
      .description(
        `${label} slug (lower case, accents folded); generated from the name when not sent, null or "" regenerates it`,
      ),
    description: text(RICH_TEXT_MAX)
      .allow(null)
      .description('Description (HTML, sanitised to a safe allow-list); null or "" clears it'),
    excerpt: text(RICH_TEXT_MAX)
      .allow(null)
      .description('Excerpt (HTML, sanitised to a safe allow-list); null or "" clears it'),
    image: optionalUrl('Featured image URL (image IDs are not hosted here, so a numeric image is rejected)').messages(
      IMAGE_MESSAGES,
    ),
  };
}

/** Where and by whom a post is being written; `N` names the kind's name field. */
export interface PostContext<N extends string = string> {
  principal: Principal;
  /** Request (content) language: the document a cleared slug is regenerated from. */
  lang: Language;
  /** Site time zone, in which `date` is read. */
  timezone: string;
  /** The kind's translatable name field, e.g. 'title', 'venue', 'organizer'. */
  nameField: N;
  now?: DateTime;
}

/** A post's write input with its name field (`title`, `venue`, `organizer`). */
export type NamedPostInput<N extends string> = PostWriteInput & Partial<Record<N, string>>;

export function postContext<N extends string>(services: Services, ctx: AppContext, nameField: N): PostContext<N> {
  return {
    principal: ctx.state.principal,
    lang: ctx.state.language,
    timezone: services.config.defaultTimezone,
    nameField,
  };
}

const emptyToNull = <T>(value: T): Exclude<T, ''> | null => (value === '' ? null : (value as Exclude<T, ''>));

/** The listed fields that were sent, with "" turned into null (a clear). */
export function clearable<I extends object>(input: I, fields: readonly (keyof I & string)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (input[field] !== undefined) out[field] = emptyToNull(input[field]);
  return out;
}

function richText(param: string, value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  return safeRichText(param, String(value), RICH_TEXT_MAX) || null;
}

/** The publication date sent, which must also read within the supported years in the site zone it is shown in. */
function publicationDate(input: PostWriteInput, timezone: string, now?: DateTime): Date | undefined {
  const field = typeof input.date_utc === 'string' ? 'date_utc' : 'date';
  const text = input[field];
  if (typeof text !== 'string') return undefined;
  try {
    const date = parseDateInput(text, field === 'date_utc' ? 'UTC' : timezone, now);
    if (!isWithinSupportedYears(date.setZone(timezone))) throw new DateOutOfRangeError(text);
    return date.toJSDate();
  } catch (err) {
    throw new ValidationError({ [field]: refusedDateMessage(field, err) });
  }
}

function slugOf<N extends string>(
  input: NamedPostInput<N>,
  existing: StoredRecord<PostDoc & Partial<Record<N, unknown>>> | null,
  context: PostContext<N>,
): string | undefined {
  if (input.slug === undefined) return undefined;
  if (input.slug !== null && input.slug !== '') return String(input.slug);
  const name =
    input[context.nameField] ?? (existing ? inLanguage(existing, context.lang)[context.nameField] : undefined);
  return typeof name === 'string' ? name : undefined;
}

/** 400 naming `author` when the `author` sent is a user no API key was ever issued to. */
export async function assertKnownAuthor(
  services: Services,
  author: number | null | undefined,
  principal: Principal,
): Promise<void> {
  if (typeof author !== 'number' || author === 0 || author === principal.userId) return;
  if (!(await services.apiKeys.hasUser(author))) {
    throw new ValidationError({ author: `there is no user with ID ${author}` });
  }
}

/** Stored post fields from validated input; defaults applied when creating (see top of file). */
export function postContent<N extends string>(
  input: NamedPostInput<N>,
  existing: StoredRecord<PostDoc & Partial<Record<N, unknown>>> | null,
  context: PostContext<N>,
): Partial<PostDoc> {
  const content: Partial<PostDoc> = {};
  const set = <K extends keyof PostDoc>(key: K, value: PostDoc[K] | undefined) => {
    if (value !== undefined) content[key] = value;
  };
  set('status', input.status);
  set('author', input.author === null ? 0 : input.author);
  set('date', publicationDate(input, context.timezone, context.now));
  set('slug', slugOf(input, existing, context));
  set('description', richText('description', input.description));
  set('excerpt', richText('excerpt', input.excerpt));
  set('image', emptyToNull(input.image));
  if (existing === null) {
    content.status ??= 'publish';
    content.author ??= context.principal.userId;
    content.date ??= context.now?.toJSDate() ?? new Date();
  }
  return content;
}
