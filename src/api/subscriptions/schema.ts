import qs from 'qs';
import { ValidationError } from '../../domain/errors';
import { cursorParam } from '../../http/cursor';
import { pagingParams } from '../../http/listPage';
import { Joi, language, url, type LanguageInput } from '../../http/params';
import { inputSchema } from '../../http/route';
import { validateInput } from '../../http/validate';
import { SECRET_PATTERN, secretKeyBytes } from '../../lib/standardWebhooks';
import type { PageLimits } from '../../services/queries/listing';
import { ANSWER_SHAPES, NOT_FILTERS } from '../../services/webhooks/subscriptionFilters';
import { eventListSchema } from '../events/list';

const byId = { id: Joi.number().integer().min(0).unsafe().required().description('Subscription ID') };

const filters = Joi.alternatives()
  .try(Joi.object().unknown(true), Joi.string().max(4000))
  .description(
    '`GET /events` parameters (an object, or a query string): the saved search. Validated as the event list validates them; ' +
      'without a date parameter there is no date limit. Paging and ordering parameters are refused.',
  )
  .example({ search: 'jazz', categories: 'concerts', geoloc_lat: 45.76, geoloc_lng: 4.84, geoloc_radius: 30 });

const secret = Joi.string()
  .max(200)
  .pattern(SECRET_PATTERN)
  .custom((value: string) => {
    if (!secretKeyBytes(value)) throw new Error('too short or too long');
    return value;
  }, 'whsec_ secret')
  .messages({
    'string.pattern.base': 'secret must be whsec_ followed by base64 (24 to 64 bytes)',
    'any.custom': 'secret must be whsec_ followed by base64 of 24 to 64 bytes',
  })
  .description('Signing secret (Standard Webhooks: whsec_ + base64 of 24 to 64 bytes); generated when not sent');

const target = url()
  .description('Where messages are POSTed: http(s), public addresses only')
  .example('https://partner.example/hooks/calendar');

/** Subscriptions and delivery logs page through MongoDB: no result window, bad paging refused. */
export const SUBSCRIPTION_PAGING = { defaultPerPage: 20, maxPerPage: 100, maxPage: 100_000 } as const;
export const SUBSCRIPTION_PAGE_LIMITS: PageLimits = {
  maxPerPage: SUBSCRIPTION_PAGING.maxPerPage,
  resultWindow: Number.POSITIVE_INFINITY,
};
const paging = pagingParams({ ...SUBSCRIPTION_PAGING, over: 'refuse' });

interface ById {
  id: number;
}
interface Paged {
  page: number;
  per_page: number;
}
/** `filters` as sent: an object of list parameters, or a query string. */
type SentFilters = object | string;
export interface CreateInput {
  url: string;
  filters: SentFilters;
  secret?: string;
}
export interface UpdateInput extends ById {
  url?: string;
  filters?: SentFilters;
  secret?: string;
  status?: 'active' | 'disabled';
}

export const createSchema = inputSchema<CreateInput & LanguageInput>()({
  url: target.required(),
  filters: filters.default({}),
  secret,
  i18n_language: language(),
});

export const updateSchema = inputSchema<UpdateInput & LanguageInput>()({
  ...byId,
  url: target,
  filters,
  secret,
  status: Joi.string()
    .valid('active', 'disabled')
    .description('active: deliver again (clears a disabled state); disabled: stop matching and delivering'),
  i18n_language: language(),
});

export const byIdSchema = inputSchema<ById & LanguageInput>()({ ...byId, i18n_language: language() });
/** How these lists are walked: by their order's keys in MongoDB, not in a snapshot. */
const KEYSET_WALK =
  'Walks the whole list: empty to start, then each answer’s next_cursor (null at the end). Each entry comes once; one added during the walk comes if it sorts after the page reached. ' +
  'A cursor keeps 5 minutes after its page (then 410 cursor-expired), works only for the caller it was issued to (400 otherwise), and excludes page';

interface Walked extends Paged {
  cursor?: string;
}
export const listSchema = inputSchema<Walked & LanguageInput>()({
  ...paging,
  cursor: cursorParam(KEYSET_WALK),
  i18n_language: language(),
});
export const deliveriesSchema = inputSchema<ById & Walked & LanguageInput>()({
  ...byId,
  ...paging,
  cursor: cursorParam(KEYSET_WALK),
  i18n_language: language(),
});

const KNOWN_FILTERS = new Set(Object.keys(eventListSchema.describe().keys as object));

/**
 * A subscription's filters validated with the event list's own schema, each bad one named
 * `filters.<name>`. Unknown names are refused (a list ignores them, but a misspelt filter would
 * silently widen a saved search); only the parameters sent are kept, so relative dates stay texts.
 */
export function validFilters(raw: unknown): Record<string, unknown> {
  const given = (typeof raw === 'string' ? qs.parse(raw.replace(/^\?/, '')) : raw) as Record<string, unknown>;
  const names = Object.keys(given);
  const problems: Record<string, string> = {};
  for (const name of names) {
    if (NOT_FILTERS.includes(name))
      problems[`filters.${name}`] = `${name} pages or orders a list: a saved search takes filters only`;
    else if (ANSWER_SHAPES.includes(name))
      problems[`filters.${name}`] =
        `${name} shapes a list's answer, not which events match: a saved search takes filters only`;
    else if (!KNOWN_FILTERS.has(name)) problems[`filters.${name}`] = `${name} is not a GET /events parameter`;
  }
  if (Object.keys(problems).length) throw new ValidationError(problems);
  let value: object;
  try {
    value = validateInput(eventListSchema, { ...given });
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    throw new ValidationError(prefixed(err.params));
  }
  const validated = new Map(Object.entries(value));
  return Object.fromEntries(names.map((name) => [name, validated.get(name)]).filter(([, v]) => v !== undefined));
}

export const prefixed = (params: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(params).map(([name, message]) => [`filters.${name}`, message]));
