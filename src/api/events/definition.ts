import type { Language } from '../../../config';
import { normalizeCost } from '../../domain/cost';
import { resolveEventDates } from '../../domain/eventDates';
import { eventJsonLd, type JsonLdEventSource } from '../../presenters/jsonLd';
import { mayManageTerms } from '../../domain/policy';
import { isProtectedFor, visibleEmbeds } from '../../storage/recordAccess';
import { checkEach, ForbiddenError } from '../../domain/errors';
import type { AppContext, RequestContext } from '../../http/types';
import type { Services } from '../../services/container';
import { inLanguage, type StoredRecord } from '../../storage/storedRecord';
import type { EventDoc } from '../../storage/stores';
import { clearable, postContent, postContext } from '../posts/postContent';
import type { ContentPlan, ResourceDefinition } from '../resource/definition';
import { planTermLinks } from '../terms/resolveTerms';
import { checkParentLink, resolveLinks } from './links';
import { hashEventPassword, verifyEventPassword } from '../../domain/eventPassword';
import { EMBEDDED_KINDS } from '../../services/views/eventView';
import { checkRecurrence, horizonOf } from '../../domain/recurrence/check';
import type { SeriesDates } from '../../domain/recurrence/expand';
import { seriesReadFields } from '../../presenters/recurrence';
import { isSeries, seriesEnd } from '../../domain/recurrence/overrides';
import {
  EVENT_REQUIRED_ON_CREATE,
  eventReadSchema,
  eventWriteSchema,
  type EventReadInput,
  type EventWriteInput,
} from './schema';

const FLAGS = ['hide_from_listings', 'sticky', 'featured', 'ticketed'] as const;
const DATE_FIELDS = ['start_date', 'end_date', 'timezone', 'all_day'] as const;

/** Defaults of a new event for the fields a create may leave out. */
export const CREATE_DEFAULTS: Partial<EventDoc> = {
  cost: null,
  website: null,
  show_map: null,
  show_map_link: null,
  hide_from_listings: false,
  sticky: false,
  featured: false,
  ticketed: false,
  post_parent: 0,
  passwordHash: null,
  venues: [],
  organizers: [],
  categories: [],
  tags: [],
};

function eventDates(input: EventWriteInput, current: EventDoc | null, defaultTimezone: string) {
  return resolveEventDates(
    {
      start_date: input.start_date,
      end_date: input.end_date,
      timezone: input.timezone === null ? '' : input.timezone,
      all_day: input.all_day === null || input.all_day === '' ? false : input.all_day,
    },
    current,
    defaultTimezone,
  );
}

async function planEventContent(
  services: Services,
  ctx: AppContext,
  input: EventWriteInput,
  existing: StoredRecord<EventDoc> | null,
): Promise<ContentPlan<EventDoc>> {
  const lang: Language = ctx.state.language;
  const current = existing ? inLanguage(existing, existing.originalLang) : null;
  const content: Partial<EventDoc> = {
    ...(existing ? {} : CREATE_DEFAULTS),
    ...(postContent(input, existing, postContext(services, ctx, 'title')) as Partial<EventDoc>),
    ...(clearable(input, ['title', 'website', 'show_map', 'show_map_link']) as Partial<EventDoc>),
  };
  for (const flag of FLAGS) if (input[flag] !== undefined) content[flag] = input[flag] === true;

  if (input.post_parent !== undefined) content.post_parent = input.post_parent ?? 0;
  if (input.cost !== undefined) content.cost = normalizeCost(input.cost);
  const mayCreateTerms = mayManageTerms(ctx.state.principal);
  const termsOf = (taxonomy: 'category' | 'tag', sent: (number | string)[] | null | undefined) =>
    sent === undefined ? undefined : planTermLinks(services, taxonomy, sent ?? [], lang, mayCreateTerms);
  // Checks that can fail come before anything is created (inline venues, organizers, terms), and
  // a write is told every bad parameter at once.
  const [dates, , links, categories, tags] = await checkEach([
    () =>
      !existing || DATE_FIELDS.some((field) => input[field] !== undefined)
        ? eventDates(input, current, services.config.defaultTimezone)
        : {},
    // Where it stands in the hierarchy is checked with the tree locked, as the write commits (resource/write.ts).
    // A parent kept as it is (shown as stored, trashed or not) is no new link.
    () =>
      content.post_parent &&
      content.post_parent !== current?.post_parent &&
      checkParentLink(services, ctx.state.principal, content.post_parent),
    () => resolveLinks(services, ctx, input),
    () => termsOf('category', input.categories),
    () => termsOf('tag', input.tags),
  ] as const);
  Object.assign(content, dates);
  const recurrence = await planRecurrence(services, input, current, content);
  if (recurrence !== undefined) content.recurrence = recurrence;
  if (recurrence) content.was_series = true;
  if (recurrence !== undefined || (current?.recurrence?.length && content.end))
    content.series_end = endOfSeries(services, { ...(current as EventDoc), ...content });
  if (input.password !== undefined)
    content.passwordHash = input.password ? await hashEventPassword(String(input.password)) : null;
  return {
    async commit() {
      Object.assign(content, await links!.commit());
      if (categories) content.categories = await categories.commit();
      if (tags) content.tags = await tags.commit();
      return content;
    },
  };
}

/**
 * The recurrence lines to store: checked against the series' dates when sent, or when the dates
 * of a series change (a rule valid for the old start may not be for the new one).
 */
async function planRecurrence(
  services: Services,
  input: EventWriteInput,
  current: EventDoc | null,
  content: Partial<EventDoc>,
): Promise<string[] | null | undefined> {
  const sent = input.recurrence;
  const lines = sent === undefined ? current?.recurrence : sent;
  if (!lines || lines.length === 0) return sent === undefined ? undefined : null;
  if (sent === undefined && !DATE_FIELDS.some((field) => input[field] !== undefined)) return undefined;
  const series = { ...(current as EventDoc), ...content } as SeriesDates;
  await checkRecurrence(lines, series, services.config.recurrence);
  return lines;
}

/** The stored `series_end` of an event as `doc` has it (null: a single event). */
export function endOfSeries(services: Services, doc: EventDoc): Date | null {
  return isSeries(doc) ? seriesEnd(doc, horizonOf(services.config.recurrence, new Date())) : null;
}

async function authorizeEventRead(ctx: RequestContext<EventReadInput>, record: StoredRecord<EventDoc>): Promise<void> {
  const doc = inLanguage(record, record.originalLang);
  const hash = doc.passwordHash;
  if (!hash || !isProtectedFor(ctx.state.principal, doc, true)) return;
  const given = ctx.input.password;
  // A wrong password counts as a failed authentication: people choose them, so guesses are limited.
  if (typeof given === 'string' && given !== '') {
    // What a password unlocks, and the refusal of a guess, are this caller's alone.
    ctx.set('Cache-Control', 'private, no-store');
    const refund = ctx.state.limits.attempt(ctx);
    if (await verifyEventPassword(given, hash)) return refund();
  }
  throw new ForbiddenError(
    'event-password-protected',
    'This event is password protected: send the right `password` parameter to read it.',
  );
}

/** Events (interface.md 4.2): posts with dates, links, terms, a parent and an optional password. */
export const eventDefinition: ResourceDefinition<EventDoc, EventWriteInput, EventReadInput> = {
  kind: 'event',
  store: (services) => services.stores.events,
  writeSchema: eventWriteSchema,
  requiredOnCreate: EVENT_REQUIRED_ON_CREATE,
  readSchema: eventReadSchema,
  posts: true,
  planContent: planEventContent,
  reparentChildren: async (services, id) => {
    await services.stores.events.reassign('post_parent', id, 0);
  },
  authorizeRead: authorizeEventRead,
  visibleTo: visibleEmbeds,
  readDependsOn: EMBEDDED_KINDS,
  readChangesWithTime: (record) => Boolean(inLanguage(record, record.originalLang).recurrence?.length),
  decorateSingle: (services, record, body) => {
    // The body is the presented event (presentEvent), which carries every field json_ld reads.
    const jsonLd = eventJsonLd(body as JsonLdEventSource);
    const doc = inLanguage(record, record.originalLang);
    if (!doc.recurrence?.length) return { ...body, json_ld: jsonLd };
    const now = new Date();
    return {
      ...body,
      ...seriesReadFields(
        { ...doc, recurrence: doc.recurrence },
        jsonLd,
        now,
        horizonOf(services.config.recurrence, now),
      ),
    };
  },
};
