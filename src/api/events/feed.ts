import { Readable } from 'node:stream';
import { assertReadable, isProtectedFor, recordOwnership } from '../../storage/recordAccess';
import { calendarHead, CALENDAR_END, vevents } from '../../presenters/icalendar';
import { ForbiddenError, notFound } from '../../domain/errors';
import { ANONYMOUS } from '../../http/authenticate';
import { answeredNotModified, publicCacheControl, vary, weakEtag } from '../../http/caching';
import { Joi, language, type LanguageInput } from '../../http/params';
import { inputSchema, route } from '../../http/route';
import type { AppContext, RequestContext, RouteSpec } from '../../http/types';
import { planEventFeed } from '../../services/queries/eventFeed';
import type { EventListInput } from '../../services/queries/eventList';
import type { Services } from '../../services/container';
import { inLanguage } from '../../storage/storedRecord';
import { syncKey } from '../../storage/syncQueue';
import { singleReadValidator } from '../readValidator';
import { eventListSchema } from './list';
import { EMBEDDED_KINDS } from '../../services/views/eventView';
import { storedEntries } from './feedEntries';
import { feedText } from './feedText';

export const CALENDAR_TYPE = 'text/calendar; charset=utf-8';

/**
 * Whether the client asks for iCalendar over JSON (`Accept: text/calendar`, with or without our
 * charset): JSON without `Accept` or when both are asked alike, unless the charset names ours.
 */
export function wantsCalendar(ctx: AppContext): boolean {
  const chosen = ctx.accepts('application/json', 'text/calendar', CALENDAR_TYPE);
  return chosen === 'text/calendar' || chosen === CALENDAR_TYPE;
}

const hostOf = (services: Services): string => new URL(services.config.apiUrl).host;

/**
 * Feeds are for calendar apps, which send no keys: a feed is the anonymous view whoever asks (a
 * key is checked as on every route, then ignored), so any cache may keep it.
 */
function asAnonymousView(ctx: AppContext, services: Services): void {
  ctx.set('Cache-Control', publicCacheControl(services.config.http));
}

/**
 * `GET /events.ics` (and `GET /events` with `Accept: text/calendar`): every match of the list's
 * parameters from the first, up to 1,000, streamed a page at a time (src/api/events/feedText.ts);
 * `page` and `per_page` do not apply. Its entity tag is known before the first record is fetched.
 */
export async function sendEventListFeed(ctx: RequestContext<EventListInput>, services: Services): Promise<void> {
  const caller = { lang: ctx.state.language, principal: ANONYMOUS };
  const plan = await planEventFeed(services, { ...ctx.input, page: 1 }, caller);
  asAnonymousView(ctx, services);
  // As on the list: how many events match (a feed shows the first 1,000), all in one "page".
  ctx.set('X-Total', String(plan.total));
  ctx.set('X-Total-Pages', plan.total > 0 ? '1' : '0');
  const etag = weakEtag(['feed', ctx.url, services.config.apiUrl, ctx.state.language, plan.total, plan.matches]);
  if (answeredNotModified(ctx, { etag })) return;
  const host = hostOf(services);
  const zones = new Set(plan.zones);
  ctx.type = CALENDAR_TYPE;
  const head = calendarHead(`${host} events`, zones);
  // One page ahead of the client at most: a slow reader holds one page of text, not the feed.
  ctx.body = Readable.from(feedText(services, ctx, plan, head, { host, zones }), { highWaterMark: 1 });
}

/**
 * `GET /events/{id}.ics` (and `GET /events/{id}` with `Accept: text/calendar`): the event as an
 * anonymous caller reads it; a password-protected one is 403 (feeds never show them).
 */
/** The `id` a single-read route validated (an integer), else NaN. */
function idOf(input: unknown): number {
  return typeof input === 'object' && input !== null && 'id' in input && typeof input.id === 'number' ? input.id : NaN;
}

export async function sendEventFeed(ctx: RequestContext<unknown>, services: Services): Promise<void> {
  const id = idOf(ctx.input);
  const record = Number.isSafeInteger(id) ? await services.stores.events.get(id) : null;
  if (!record) throw notFound('event', String(ctx.params?.id ?? id));
  const marks = services.sync.marks.current(EMBEDDED_KINDS);
  marks.catch(() => undefined);
  assertReadable('event', ANONYMOUS, recordOwnership(record), `ID ${id}`);
  const doc = inLanguage(record, record.originalLang);
  if (isProtectedFor(ANONYMOUS, doc, Boolean(doc.passwordHash))) {
    throw new ForbiddenError('event-password-protected', 'This event is password protected: feeds leave it out.');
  }
  asAnonymousView(ctx, services);
  if (answeredNotModified(ctx, singleReadValidator(ctx, 'event', record, await marks, 'ics', ANONYMOUS))) return;
  const entry = await services.sync.entries.findOne({ _id: syncKey('event', id) });
  const entries = (await storedEntries(services, ctx.state.language, [{ record, sequence: entry?.version ?? 0 }]))[0]!;
  const host = hostOf(services);
  const event = entries[0]!.event;
  const zones = new Set(event.all_day === true ? [] : [String(event.timezone)]);
  ctx.type = CALENDAR_TYPE;
  ctx.body = calendarHead(`${host} events`, zones) + vevents(entries, host, zones) + CALENDAR_END;
}

/**
 * Routes a GET answering JSON or, on `Accept: text/calendar`, the feed: `Vary: Accept` on both,
 * and the JSON one's own handler otherwise.
 */
export function negotiatingCalendar<I>(
  route: RouteSpec<I>,
  feed: (ctx: RequestContext<I>) => Promise<void>,
): RouteSpec<I> {
  return {
    ...route,
    handler: async (ctx) => {
      vary(ctx, 'Accept');
      await (wantsCalendar(ctx) ? feed(ctx) : route.handler(ctx));
    },
  };
}

/** `GET /events.ics` and `GET /events/{id}.ics` (EXTENSIONS part 12). */
export function eventFeedRoutes(services: Services): RouteSpec[] {
  const anonymousOnly =
    'The anonymous view whatever the caller (an API key is checked, then ignored): password-protected events are left out.';
  return [
    route({
      methods: ['GET'],
      path: '/events.ics',
      resource: 'events',
      summary: 'Calendar feed (iCalendar) of an event list',
      description:
        'Every `GET /events` parameter; all matches from the first, up to 1,000 (page and per_page do not apply), ' +
        `as RFC 5545 text/calendar with one VEVENT per event and a VTIMEZONE per time zone used. ${anonymousOnly}`,
      access: 'read',
      input: eventListSchema,
      response: 'calendar',
      errors: [400, 404, 503],
      handler: (ctx) => sendEventListFeed(ctx, services),
    }),
    route({
      methods: ['GET'],
      path: '/events/:id.ics',
      resource: 'events',
      summary: 'Calendar feed (iCalendar) of one event',
      description: `The event as one VEVENT in an RFC 5545 calendar. ${anonymousOnly} (403)`,
      access: 'read',
      input: inputSchema<{ id: number } & LanguageInput>()({
        id: Joi.number().integer().min(0).unsafe().required().description('event ID'),
        i18n_language: language(),
      }),
      response: 'calendar',
      errors: [400, 403, 404],
      handler: (ctx) => sendEventFeed(ctx, services),
    }),
  ];
}
