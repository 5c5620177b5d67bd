import { DateTime } from 'luxon';
import {
  isCalendarDay,
  inWrittenOffset,
  isWithinSupportedYears,
  MAX_YEAR,
  parseDateInput,
  refusedDateMessage,
  toLocalIso,
} from '../domain/dates';
import { ValidationError } from '../errors';

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
  op: 'gte' | 'gt' | 'lte';
  value: string;
}

const DEFAULT_WINDOW_YEARS = 2;
/** Day-or-time texts without an offset: they name a wall-clock time, not an instant. */
const ZONE_FREE = /^(\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?|today|tomorrow|yesterday)$/i;

/** A date parameter, resolved in the site zone. */
interface ResolvedDate {
  /** Its wall-clock time there, or in the offset it was written with, ISO 8601 without a zone. */
  local: string;
  /** The instant, for texts with an offset, timestamps, `now` and `±N days`; absent for wall-clock texts. */
  instant?: DateTime;
}

function fromDateTime(at: DateTime, wall: boolean): ResolvedDate {
  return wall ? { local: toLocalIso(at) } : { local: toLocalIso(at), instant: at };
}

function resolve(param: keyof DateFilterInput, text: string, zone: string, now: () => DateTime): ResolvedDate {
  const trimmed = text.trim();
  // The common case, a calendar day, needs no DateTime at all.
  if (isCalendarDay(trimmed)) return { local: `${trimmed}T00:00:00` };
  try {
    const at = parseDateInput(trimmed, zone, now());
    if (ZONE_FREE.test(trimmed)) return { local: toLocalIso(at) };
    // A day is the one written: `2031-03-10T08:00+09:00` is the 10th, even on a UTC site.
    return { local: toLocalIso(inWrittenOffset(trimmed, at)), instant: at };
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
  if (!strict) {
    // Whole days: the bound is a calendar day, matched against the day shown on each event.
    const day = date.local.slice(0, 10);
    return { field: `${kind}_local`, op, value: `${day}T${edge === 'start' ? '00:00:00' : '23:59:59'}` };
  }
  if (!date.instant) return { field: `${kind}_local`, op, value: date.local };
  return { field: `${kind}_utc`, op, value: date.instant.toUTC().toISO() as string };
}

/**
 * Now + 2 years (CONTRACT part 7). For a start past that, the contract's window would always be
 * empty: it ends two years after the start instead, in the start's terms (wall clock or instant).
 * Never past the last supported second.
 */
function defaultEnd(start: ResolvedDate, zone: string, now: DateTime): ResolvedDate {
  const from = start.instant ?? DateTime.fromISO(start.local, { zone });
  const fromNow = now.setZone(zone).plus({ years: DEFAULT_WINDOW_YEARS });
  const [end, wall] =
    fromNow >= from ? [fromNow, false] : [from.plus({ years: DEFAULT_WINDOW_YEARS }), start.instant === undefined];
  return isWithinSupportedYears(end) ? fromDateTime(end, wall) : lastSupportedSecond(zone);
}

function lastSupportedSecond(zone: string): ResolvedDate {
  const last = { year: MAX_YEAR, month: 12, day: 31, hour: 23, minute: 59, second: 59 };
  // The earlier of the last local second and the last UTC one (west of UTC, the local one is past it).
  const end = DateTime.min(
    DateTime.fromObject(last, { zone }),
    DateTime.fromObject(last, { zone: 'UTC' }).setZone(zone),
  );
  return fromDateTime(end, false);
}

/**
 * The date bounds of an event list (CONTRACT part 7). Without `strict_dates`, `start_date` is
 * the start of its day and every other bound the end of its day; days and zone-less times are
 * compared with each event's local (wall-clock) times, so an event is "on" the day its own page
 * shows. Times with an offset, unix timestamps, `now` and `±N days` are instants, compared in
 * UTC when strict. Texts without an offset are read in `zone` (the site time zone). Default
 * window: `start_date` = now, `end_date` = now + 2 years (see defaultEnd), dropped when only
 * `starts_*`/`ends_*` are given. Events match when they start within the window.
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
    const start = given('start_date') ? date('start_date') : fromDateTime(clock().setZone(zone), false);
    const end = given('end_date') ? date('end_date') : defaultEnd(start, zone, clock());
    clauses.push(clause('start', 'gte', start, 'start', strict), clause('start', 'lte', end, 'end', strict));
  }
  for (const param of startsEnds) {
    const [kind, direction] = param.split('_') as ['starts' | 'ends', 'before' | 'after'];
    const field = kind === 'starts' ? 'start' : 'end';
    clauses.push(clause(field, direction === 'before' ? 'lte' : 'gt', date(param), 'end', strict));
  }
  return clauses;
}
