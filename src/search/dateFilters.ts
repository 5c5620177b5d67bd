import { DateTime } from 'luxon';
import {
  isCalendarDay,
  inWrittenOffset,
  MAX_YEAR,
  MIN_YEAR,
  namesSiteDay,
  namesWallClock,
  parseDateInput,
  refusedDateMessage,
  toLocalIso,
} from '../domain/dates';
import { ValidationError } from '../domain/errors';

/** The date parameters of `GET /events` (CONTRACT part 7), as validated texts. */
export interface DateFilterInput {
  start_date?: string;
  end_date?: string;
  starts_before?: string;
  starts_after?: string;
  ends_before?: string;
  ends_after?: string;
  strict_dates?: boolean;
}

export type DateField = 'start_utc' | 'start_local' | 'end_utc' | 'end_local';

/** One bound on an event date: `start_local >= 2030-05-10T00:00:00`, `end_utc <= ...`. */
export interface DateClause {
  field: DateField;
  op: 'gte' | 'gt' | 'lt' | 'lte';
  value: string;
}

const DEFAULT_WINDOW_YEARS = 2;
/** The instants a UTC date field can hold (see isWithinSupportedYears). */
const FIRST_INSTANT = DateTime.fromObject({ year: MIN_YEAR }, { zone: 'UTC' });
const LAST_INSTANT = DateTime.fromObject({ year: MAX_YEAR }, { zone: 'UTC' }).endOf('year');

/**
 * A date parameter: a wall-clock time (a day, or a time written without an offset), compared
 * with each event's own local time; or an instant (an offset, a timestamp, `now`, `±N days`),
 * in the zone whose days it is widened to (the offset written, else the site time zone).
 */
type ResolvedDate = { wall: string } | { instant: DateTime };

function resolve(param: keyof DateFilterInput, text: string, zone: string, now: () => DateTime): ResolvedDate {
  const trimmed = text.trim();
  // The common case, a calendar day, needs no DateTime at all.
  if (isCalendarDay(trimmed)) return { wall: `${trimmed}T00:00:00` };
  try {
    if (!namesWallClock(trimmed)) return { instant: inWrittenOffset(trimmed, parseDateInput(trimmed, zone, now())) };
    // Read in UTC, which skips no hour: `02:30` stays 02:30 where the site's clocks skip it.
    return { wall: toLocalIso(parseDateInput(trimmed, namesSiteDay(trimmed) ? zone : 'UTC', now())) };
  } catch (err) {
    throw new ValidationError({ [param]: refusedDateMessage(param, err) });
  }
}

function clause(
  kind: 'start' | 'end',
  op: DateClause['op'],
  date: ResolvedDate,
  edge: 'start' | 'end',
  strict: boolean,
): DateClause {
  if ('wall' in date) {
    // Whole days unless strict: the bound is a calendar day, matched against the day each event shows.
    const value = strict ? date.wall : `${date.wall.slice(0, 10)}T${edge === 'start' ? '00:00:00' : '23:59:59'}`;
    return { field: `${kind}_local`, op, value };
  }
  const { instant } = date;
  const bound = strict ? instant : edge === 'start' ? instant.startOf('day') : instant.endOf('day');
  const supported = DateTime.max(FIRST_INSTANT, DateTime.min(LAST_INSTANT, bound.toUTC()));
  return { field: `${kind}_utc`, op, value: supported.toISO() as string };
}

type Window = Readonly<Record<'start' | 'end', DateClause>>;

/** The default window from `there` (now, in the site zone): from its day (its instant when strict), two years on. */
function defaultWindow(there: DateTime, strict: boolean): Window {
  return {
    start: Object.freeze(clause('start', 'gte', { instant: there }, 'start', strict)),
    end: Object.freeze(clause('start', 'lte', { instant: there.plus({ years: DEFAULT_WINDOW_YEARS }) }, 'end', strict)),
  };
}

/** The last default window made (not strict), and the instants of the day in its zone it holds for. */
let today: { zone: string; from: number; until: number; window: Window } | undefined;

/** Not strict, the default window is the same all day in `zone`: made once a day, not per list. */
function defaultWindowOfDay(zone: string, now: DateTime): Window {
  const at = now.toMillis();
  if (today && today.zone === zone && at >= today.from && at < today.until) return today.window;
  const there = now.setZone(zone);
  const window = defaultWindow(there, false);
  today = { zone, from: there.startOf('day').toMillis(), until: there.endOf('day').toMillis() + 1, window };
  return window;
}

/**
 * The date bounds of an event list (CONTRACT part 7). Without `strict_dates`, `start_date` is
 * the start of its day and every other bound the end of its day. Days and times written without
 * an offset are wall-clock times, compared with each event's local times, so that an event is
 * "on" the day its own page shows. Instants (an offset, a timestamp, `now`, `±N days`) are
 * compared with each event's instant, widened to the whole day in the offset written, else in
 * `zone` (the site time zone): by default, events that started today there or later are listed
 * wherever they take place. Default window: `start_date` = now, `end_date` = now + 2 years, dropped
 * when only `starts_*`/`ends_*` are given. Events match when they start within the window;
 * `*_before` excludes its bound when strict, `*_after` always does.
 */
export function eventDateClauses(input: DateFilterInput, zone: string, now?: DateTime): DateClause[] {
  // Only relative texts and the default window need the clock.
  const clock = () => (now ??= DateTime.now());
  const strict = input.strict_dates === true;
  const clauses: DateClause[] = [];
  const given = (param: keyof DateFilterInput) => typeof input[param] === 'string' && input[param] !== '';
  const date = (param: keyof DateFilterInput) => resolve(param, input[param] as string, zone, clock);
  const startsEnds = (['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const).filter(given);
  const windowDropped = startsEnds.length > 0 && !given('start_date') && !given('end_date');
  if (!windowDropped) {
    let window: Window | undefined;
    const defaults = () =>
      (window ??= strict ? defaultWindow(clock().setZone(zone), true) : defaultWindowOfDay(zone, clock()));
    clauses.push(
      given('start_date') ? clause('start', 'gte', date('start_date'), 'start', strict) : defaults().start,
      given('end_date') ? clause('start', 'lte', date('end_date'), 'end', strict) : defaults().end,
    );
  }
  for (const param of startsEnds) {
    const [kind, direction] = param.split('_') as ['starts' | 'ends', 'before' | 'after'];
    const field = kind === 'starts' ? 'start' : 'end';
    const op = direction === 'after' ? 'gt' : strict ? 'lt' : 'lte';
    clauses.push(clause(field, op, date(param), 'end', strict));
  }
  return clauses;
}
