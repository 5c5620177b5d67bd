import { answeredNotModified } from '../../http/caching';
import { singleReadValidator } from '../readValidator';
import { normalizeCost } from '../../domain/cost';
import { checkEach } from '../../domain/errors';
import { resolveEventDates } from '../../domain/eventDates';
import { safeRichText } from '../../domain/html';
import { applyVerdict, decideUpdate, writeRequestOf } from '../../domain/policy';
import { recurrenceIdOf, type Occurrence } from '../../domain/recurrence/expand';
import {
  overrideOf,
  startOfRecurrenceId,
  withExcluded,
  type OccurrenceOverride,
  type OccurrenceText,
} from '../../domain/recurrence/overrides';
import { cursorParam } from '../../http/cursor';
import { pagingParams, sendPage } from '../../http/listPage';
import { Joi, language, type LanguageInput } from '../../http/params';
import { inputSchema, route, withKeys, type InputKeys, type InputSchema } from '../../http/route';
import type { AppContext, RequestContext, RouteSpec } from '../../http/types';
import { waitForIndex } from '../../http/waitPreference';
import type { Services } from '../../services/container';
import { eventListQuery, type Caller, type EventListInput } from '../../services/queries/eventList';
import { pageOf, pageRequest } from '../../services/queries/listing';
import { assertReadable, recordOwnership } from '../../storage/recordAccess';
import { inLanguage, type StoredRecord } from '../../storage/storedRecord';
import type { EventDoc } from '../../storage/stores';
import { byId, type Address, type ByIdInput } from '../resource/address';
import { readInput, resourceOf } from '../resource/resource';
import { sendWalkPage } from '../listRoute';
import { writing } from '../resource/write';
import { occurrenceOf, presentOccurrence, type EventResource } from './occurrenceView';
import { endOfSeries, eventDefinition } from './definition';
import { resolveLinks } from './links';
import { RICH_TEXT_MAX } from '../posts/postContent';
import { eventDateParams, type EventDateParams } from './list';
import { occurrenceWriteSchema, type OccurrenceWriteInput } from './schema';

interface OccurrenceKey {
  recurrence_id: string;
}

const recurrenceIdKey: InputKeys<OccurrenceKey> = {
  recurrence_id: Joi.string()
    .pattern(/^\d{8}T\d{6}Z$/)
    .required()
    // 20271323T090000Z has the form but is no time: 400, as a malformed one is.
    .custom((value: string, helpers) =>
      recurrenceIdOf(startOfRecurrenceId(value)) === value ? value : helpers.error('string.pattern.base'),
    )
    .messages({
      'string.pattern.base': "{{#label}} must be an occurrence's original start in UTC, as 20270105T090000Z",
    })
    .description("The occurrence's original start in UTC basic form (its `occurrence.recurrence_id`)"),
};

const PATH = '/events/:id/occurrences';

/** `base` with the path's series `id` and occurrence `recurrence_id`. */
const occurrenceInput = <I>(base: InputSchema<I>, address: EventAddress) =>
  withKeys<I & ByIdInput, OccurrenceKey>(withKeys<I, ByIdInput>(base, address.keys), recurrenceIdKey);

type EventAddress = Address<EventDoc, ByIdInput>;

const callerOf = (ctx: AppContext) => ({ lang: ctx.state.language, principal: ctx.state.principal });

/**
 * Occurrences of a recurring event (EXTENSIONS part 11): the list of one series, and one
 * occurrence read, changed (moved, another venue...) or cancelled on its own.
 */
export function occurrenceRoutes(services: Services): RouteSpec[] {
  const res: EventResource = resourceOf(services, eventDefinition);
  const address = byId(res);
  return [
    listOccurrences(res, address),
    readOccurrence(res, address),
    updateOccurrence(res, address),
    cancelOccurrence(res, address),
  ];
}

/** The series `id` as the caller may see it (404, 401/403 as a read). */
async function readableSeries(address: EventAddress, ctx: RequestContext<ByIdInput>) {
  const record = await address.find(ctx);
  assertReadable('event', ctx.state.principal, recordOwnership(record), address.named(ctx.input, record));
  return record;
}

type OccurrenceListInput = EventDateParams &
  ByIdInput &
  LanguageInput & { page: number; per_page: number; cursor?: string };

/** `GET /events/{id}/occurrences`: the series' occurrences in the index window, paged, date filters as lists. */
function listOccurrences(res: EventResource, address: EventAddress): RouteSpec {
  const { services } = res;
  return route({
    methods: ['GET'],
    path: PATH,
    resource: 'events',
    summary: 'List the occurrences of a recurring event (ours)',
    description:
      'The occurrences of a series as the event list shows them (one entry each, with `occurrence`), in the same date window and with the same date parameters; a single event lists itself.',
    access: 'read',
    input: inputSchema<OccurrenceListInput>()({
      ...pagingParams(),
      ...eventDateParams(),
      ...address.keys,
      i18n_language: language(),
      cursor: cursorParam(),
    }),
    response: 'events',
    errors: [400, 401, 403, 404, 410, 503],
    handler: async (ctx) => {
      const record = await readableSeries(address, ctx);
      const path = `/events/${record.id}/occurrences`;
      const queryOf = (listed: OccurrenceListInput, caller: Caller) => {
        const { id: _id, i18n_language: _lang, cursor: _cursor, ...filters } = listed;
        const input: EventListInput = { ...filters, geoloc_radius: 25, geoloc_unit: 'mi' };
        return eventListQuery(services, input, caller, { series: record.id });
      };
      if (ctx.input.cursor !== undefined) {
        await sendWalkPage(services, 'event', queryOf, ctx, ctx.input.cursor, path);
        return;
      }
      const query = await queryOf(ctx.input, callerOf(ctx));
      const page = await pageOf(services, query, pageRequest(ctx.input.page, ctx.input.per_page));
      sendPage(ctx, services.config, 'event', page!, path);
    },
  });
}

/** `GET /events/{id}/occurrences/{recurrence_id}`: one occurrence, read from the database. */
function readOccurrence(res: EventResource, address: EventAddress): RouteSpec {
  return route({
    methods: ['GET'],
    path: `${PATH}/:recurrence_id`,
    resource: 'events',
    summary: 'Read one occurrence of a recurring event (ours)',
    access: 'read',
    input: occurrenceInput(readInput(res), address),
    response: 'event',
    errors: [400, 401, 403, 404],
    handler: async (ctx) => {
      const record = await readableSeries(address, ctx);
      await res.def.authorizeRead?.(ctx, record);
      const occurrence = occurrenceOf(res.services, record, ctx.input.recurrence_id);
      // Validated as a read of its series is (ETag and Last-Modified), the occurrence named.
      const marks = await res.services.sync.marks.current(res.def.readDependsOn ?? []);
      const timely = res.def.readChangesWithTime?.(record) ?? false;
      const format = `json@${occurrence.recurrenceId}`;
      if (
        answeredNotModified(ctx, singleReadValidator(ctx, 'event', record, marks, format, ctx.state.principal, timely))
      )
        return;
      ctx.body = await presentOccurrence(res, record, occurrence, callerOf(ctx));
    },
  });
}

/** Runs a write of one occurrence as a write of its series: queued, allowed as an update of it, 404 without the occurrence. */
function writingOccurrence<I extends ByIdInput & OccurrenceKey>(
  res: EventResource,
  address: EventAddress,
  ctx: RequestContext<I>,
  write: (existing: StoredRecord<EventDoc>, occurrence: Occurrence) => Promise<void>,
): Promise<void> {
  return writing(res, address, ctx, async (existing) => {
    const verdict = decideUpdate('event', ctx.state.principal, recordOwnership(existing), writeRequestOf({}));
    applyVerdict(verdict, ctx.input);
    await write(existing, occurrenceOf(res.services, existing, ctx.input.recurrence_id));
  });
}

type OccurrenceUpdateInput = OccurrenceWriteInput & ByIdInput & OccurrenceKey & LanguageInput;

/** `PATCH /events/{id}/occurrences/{recurrence_id}`: changes one occurrence, the others untouched. */
function updateOccurrence(res: EventResource, address: EventAddress): RouteSpec {
  const { services } = res;
  return route({
    methods: ['POST', 'PUT', 'PATCH'],
    path: `${PATH}/:recurrence_id`,
    resource: 'events',
    summary: 'Change one occurrence of a recurring event: move it, give it another venue, title... (ours)',
    access: 'write',
    input: occurrenceInput(
      withKeys<OccurrenceWriteInput, LanguageInput>(occurrenceWriteSchema, { i18n_language: language() }),
      address,
    ),
    response: 'event',
    errors: [400, 401, 403, 404, 409],
    handler: (ctx) =>
      writingOccurrence(res, address, ctx, async (existing, occurrence) => {
        const content = await plannedOverride(services, ctx, existing, occurrence);
        const updated = await res.store.update(existing, ctx.state.language, content);
        await waitForIndex(ctx, services, 'event', updated.id);
        ctx.body = await presentOccurrence(
          res,
          updated,
          occurrenceOf(services, updated, occurrence.recurrenceId),
          callerOf(ctx),
        );
      }),
  });
}

/**
 * What an occurrence write stores: the series' overrides with this occurrence's changed (shared
 * fields) and its texts in the request language. Every check runs before anything is created
 * (inline venues and organizers are created by the returned function).
 */
async function plannedOverride(
  services: Services,
  ctx: RequestContext<OccurrenceUpdateInput>,
  record: StoredRecord<EventDoc>,
  occurrence: Occurrence,
): Promise<() => Promise<Partial<EventDoc>>> {
  const input = ctx.input;
  const rid = occurrence.recurrenceId;
  const series = inLanguage(record, record.originalLang);
  const override: OccurrenceOverride = { ...overrideOf(series, rid), recurrence_id: rid };
  const [dates, links] = await checkEach([
    () => occurrenceDates(services, input, series, occurrence),
    () =>
      resolveLinks(services, ctx, {
        ...(input.venue !== undefined && input.venue !== null && input.venue !== '' ? { venue: input.venue } : {}),
        ...(input.organizer !== undefined && input.organizer !== null && input.organizer !== ''
          ? { organizer: input.organizer }
          : {}),
      }),
  ] as const);
  if (dates === null) {
    delete override.start;
    delete override.end;
  } else if (dates) Object.assign(override, dates);
  for (const field of ['venue', 'organizer'] as const) if (followsSeries(input[field])) delete override[`${field}s`];
  if (input.cost !== undefined) {
    if (input.cost === null || input.cost === '') delete override.cost;
    else override.cost = normalizeCost(input.cost);
  }
  const lang = ctx.state.language;
  const texts = { ...inLanguage(record, lang).occurrence_texts };
  const text: OccurrenceText = { ...texts[rid] };
  for (const field of ['title', 'description', 'excerpt'] as const) {
    const sent = input[field];
    if (sent === undefined) continue;
    if (sent === null || sent === '') delete text[field];
    else text[field] = field === 'title' ? sent : (safeRichText(field, sent, RICH_TEXT_MAX) ?? '');
  }
  if (Object.keys(text).length > 0) texts[rid] = text;
  else delete texts[rid];
  return async () => {
    Object.assign(override, await links!.commit());
    const others = (series.occurrence_overrides ?? []).filter((kept) => kept.recurrence_id !== rid);
    const overrides = Object.keys(override).length > 1 ? [...others, override] : others;
    return {
      occurrence_overrides: overrides,
      occurrence_texts: texts,
      series_end: endOfSeries(services, { ...series, occurrence_overrides: overrides }),
    };
  };
}

const followsSeries = (value: unknown): boolean => value === null || value === '';

/** The occurrence's new dates: null when both are sent as null (back to the rule's), undefined when unchanged. */
function occurrenceDates(
  services: Services,
  input: OccurrenceWriteInput,
  series: EventDoc,
  occurrence: Occurrence,
): Pick<OccurrenceOverride, 'start' | 'end'> | null | undefined {
  const { start_date, end_date } = input;
  if (start_date === undefined && end_date === undefined) return undefined;
  if (start_date === null || end_date === null) return null;
  const resolved = resolveEventDates(
    { start_date, end_date },
    { ...series, all_day: Boolean(series.all_day), start: occurrence.start, end: occurrence.end },
    services.config.defaultTimezone,
  );
  return { start: resolved.start, end: resolved.end };
}

/** `DELETE /events/{id}/occurrences/{recurrence_id}`: cancels one occurrence (an EXDATE of the series). */
function cancelOccurrence(res: EventResource, address: EventAddress): RouteSpec {
  const { services } = res;
  return route({
    methods: ['DELETE'],
    path: `${PATH}/:recurrence_id`,
    resource: 'events',
    summary: 'Cancel one occurrence of a recurring event: the series gets an EXDATE (ours)',
    access: 'write',
    input: occurrenceInput(inputSchema<LanguageInput>()({ i18n_language: language() }), address),
    response: 'CancelledOccurrence',
    errors: [400, 401, 403, 404, 409],
    handler: (ctx) =>
      writingOccurrence(res, address, ctx, async (existing, occurrence) => {
        const previous = await presentOccurrence(res, existing, occurrence, callerOf(ctx));
        const series = inLanguage(existing, existing.originalLang);
        const rid = occurrence.recurrenceId;
        const cancelled = {
          recurrence: withExcluded(series, rid),
          occurrence_overrides: (series.occurrence_overrides ?? []).filter((kept) => kept.recurrence_id !== rid),
        };
        await res.store.update(existing, ctx.state.language, {
          ...cancelled,
          series_end: endOfSeries(services, { ...series, ...cancelled }),
        });
        await waitForIndex(ctx, services, 'event', existing.id);
        ctx.body = { deleted: true, previous };
      }),
  });
}
