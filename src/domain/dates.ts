import { DateTime, FixedOffsetZone } from 'luxon';
import { ianaTimeZone } from '../../config/timeZone';
import { boundedMemo } from '../lib/memo';

/** The textual form the API returns and the list filters default to. */
export const WIRE_FORMAT = 'yyyy-MM-dd HH:mm:ss';

const RELATIVE = /^([+-])\s*(\d{1,4})\s*(day|week|month|year)s?$/i;
const NAMED = new Set(['now', 'today', 'tomorrow', 'yesterday']);
// Up to 12 digits: 253402300799 is the last second of year 9999.
const UNIX_SECONDS = /^-?\d{1,12}$/;
const WIRE = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 lets a space stand for the `T` (`2031-03-10 12:00:00+02:00`); ISO 8601 parsing does not.
const SPACED_ISO = /^(\d{4}-\d{2}-\d{2}) (?=\d{2}:)/;
// A calendar, ordinal or week date first (`2030-05-10`, `2030-130`, `2030-W19`, `20300510T…`):
// luxon also reads a time alone, basic ones included (`1000Z`), as today's.
const ISO_DATE_FIRST = /^\d{4}-(?:\d{2}|\d{3}|W\d{2})|^\d{7,8}T/i;
// Some 24 hours before: clocks change at most once a day, so this is the offset before a change.
const BEFORE_A_CHANGE = { hours: 24 };
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * True when `text` is `YYYY-MM-DD` naming a real calendar day. Checked without luxon: it is the
 * form lists are filtered by, and building a DateTime for it cost more than the rest of a list's
 * validation.
 */
export function isCalendarDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number));
}

/** Dates are kept within years 1 to 9999, in their own zone and in UTC (what the index stores). */
export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

/** A date form that parses to an instant outside MIN_YEAR..MAX_YEAR. */
export class DateOutOfRangeError extends RangeError {
  override name = 'DateOutOfRangeError';
}

export const outsideYearsMessage = (field: string): string =>
  `${field} must be between the years ${MIN_YEAR} and ${MAX_YEAR}`;

/** What to tell the caller about a date parameter parseDateInput refused. */
export const refusedDateMessage = (field: string, err: unknown): string =>
  err instanceof DateOutOfRangeError ? outsideYearsMessage(field) : `${field} is not a date`;

export function isWithinSupportedYears(date: DateTime): boolean {
  const utc = date.toUTC();
  return [date.year, utc.year].every((year) => year >= MIN_YEAR && year <= MAX_YEAR);
}

/** ISO 8601 offsets span -18:00 to +18:00; luxon reads any two digits, `+99:99` included. */
const MAX_OFFSET_MINUTES = 18 * 60;
const TRAILING_OFFSET = /\d(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)$/i;

/**
 * The offset a date text ends with, as written (`Z`, `+09:00`, `-0330`), or null when it has
 * none. A date alone (`2030-12-31`) has no offset, though its `-31` reads like one.
 */
function writtenOffset(text: string): { hours: number; minutes: number; sign: 1 | -1 } | null {
  if (!text.includes(':') && !/T/i.test(text)) return null;
  const match = TRAILING_OFFSET.exec(text);
  if (!match) return null;
  if (match[1]) return { hours: 0, minutes: 0, sign: 1 };
  return { hours: Number(match[3]), minutes: Number(match[4] ?? 0), sign: match[2] === '-' ? -1 : 1 };
}

/** False when the ISO text `iso` ends with an offset no clock can have (`+25:00`, `+02:75`). */
function hasValidOffset(iso: string): boolean {
  const offset = writtenOffset(iso);
  return offset === null || (offset.minutes < 60 && offset.hours * 60 + offset.minutes <= MAX_OFFSET_MINUTES);
}

/**
 * `at` (parsed from `text` by parseDateInput) in the offset `text` was written with, when it has
 * one: its wall clock is then the one the client wrote (`08:00+09:00` on the 10th is the 10th).
 */
export function inWrittenOffset(text: string, at: DateTime): DateTime {
  const offset = writtenOffset(text.trim());
  if (offset === null) return at;
  return at.setZone(FixedOffsetZone.instance(offset.sign * (offset.hours * 60 + offset.minutes)));
}

/**
 * Whether the date text names a wall-clock time (a day, or a time written without an offset)
 * rather than an instant (`now`, `±N days`, a unix timestamp, a time with an offset).
 */
export function namesWallClock(text: string): boolean {
  const t = text.trim();
  return !(t.toLowerCase() === 'now' || RELATIVE.test(t) || UNIX_SECONDS.test(t)) && writtenOffset(t) === null;
}

/** Whether the date text is `today`, `tomorrow` or `yesterday`: a day of the site time zone. */
export function namesSiteDay(text: string): boolean {
  const t = text.trim().toLowerCase();
  return NAMED.has(t) && t !== 'now';
}

/**
 * Whether `text` is one of the accepted date forms of CONTRACT part 2, a real date within the
 * supported years: 'ok', 'format' or 'range'.
 */
export function checkDateInput(text: string): 'ok' | 'format' | 'range' {
  const day = text.trim();
  if (isCalendarDay(day)) return Number(day.slice(0, 4)) >= MIN_YEAR ? 'ok' : 'range';
  try {
    parseDateInput(text, 'UTC');
    return 'ok';
  } catch (err) {
    return err instanceof DateOutOfRangeError ? 'range' : 'format';
  }
}

/**
 * Parses an accepted date form in time zone `zone` (offsets and `Z` in the text win).
 * Throws on anything else.
 */
export function parseDateInput(text: string, zone: string, now: DateTime = DateTime.now()): DateTime {
  const t = text.trim();
  const lower = t.toLowerCase();
  const base = now.setZone(zone);
  let result: DateTime;
  if (NAMED.has(lower)) {
    result =
      lower === 'now'
        ? base
        : base.startOf('day').plus({ days: lower === 'tomorrow' ? 1 : lower === 'yesterday' ? -1 : 0 });
  } else if (RELATIVE.test(t)) {
    const [, sign, count, unit] = RELATIVE.exec(t) as RegExpExecArray;
    const amount = Number(count) * (sign === '-' ? -1 : 1);
    result = base.plus({ [`${unit!.toLowerCase()}s`]: amount });
  } else if (UNIX_SECONDS.test(t)) {
    result = DateTime.fromSeconds(Number(t), { zone });
  } else if (WIRE.test(t)) {
    result = firstOccurrence(DateTime.fromSQL(t, { zone }));
  } else {
    const iso = t.replace(SPACED_ISO, '$1T');
    if (!ISO_DATE_FIRST.test(iso)) throw new RangeError(`not a date: ${text}`);
    result = DateTime.fromISO(iso, { zone, setZone: true });
    if (result.isValid && !hasValidOffset(iso)) throw new RangeError(`not a UTC offset: ${text}`);
    if (result.isValid) result = result.zoneName === zone ? firstOccurrence(result) : result.setZone(zone);
  }
  if (!result.isValid) throw new RangeError(`not a date: ${text}`);
  if (!isWithinSupportedYears(result))
    throw new DateOutOfRangeError(`outside the years ${MIN_YEAR}-${MAX_YEAR}: ${text}`);
  return result;
}

/**
 * In the hour clocks repeat, a local time names two instants; the first is meant (RFC 5545 3.3.5,
 * as Java and Python's zoneinfo read it), where luxon takes the second. A local time clocks skip
 * is moved forward by the gap (luxon already does: RFC 5545 reads it with the offset before).
 */
function firstOccurrence(local: DateTime): DateTime {
  if (!local.isValid) return local;
  const before = local.minus(BEFORE_A_CHANGE).offset;
  if (before <= local.offset) return local;
  const earlier = local.minus({ minutes: before - local.offset });
  return earlier.hour === local.hour && earlier.minute === local.minute ? earlier : local;
}

/** The same wall-clock time in `zone`, its first occurrence where clocks repeat it (see firstOccurrence). */
export function sameWallClockIn(date: DateTime, zone: string): DateTime {
  return firstOccurrence(date.setZone(zone, { keepLocalTime: true }));
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/**
 * `date` as WIRE_FORMAT. Built from the date's fields: luxon's toFormat parses the format on
 * every call, and presenting an event formats a dozen dates in each of its languages.
 */
export function toWire(date: DateTime): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)} ${pad(date.hour)}:${pad(date.minute)}:${pad(date.second)}`;
}

/** The instant `date` as WIRE_FORMAT in UTC: toWire of it in UTC, without luxon's zone work. */
export function wireUtc(date: Date): string {
  const d = utcDetails(date);
  return `${d.year}-${d.month}-${d.day} ${d.hour}:${d.minutes}:${d.seconds}`;
}

/** Instants kept per zone by wireDateIn: a few batches' worth of records. */
const WIRE_DATES_KEPT = 10_000;

/**
 * Per zone, the instant `date` as WIRE_FORMAT there. Memoised by instant (its number: no key
 * string per call): a record shows its dates in each of its languages (and a reindex presents
 * every record), and luxon's zone conversion costs several times the lookup.
 */
const wireDatesIn = boundedMemo(
  1_000,
  (zone: string) => zone,
  (zone) =>
    boundedMemo(
      WIRE_DATES_KEPT,
      (date: Date) => date.getTime(),
      (date) => toWire(DateTime.fromJSDate(date, { zone })),
    ),
);

/** The instant `date` as WIRE_FORMAT in `zone`. */
export function wireDateIn(date: Date, zone: string): string {
  return wireDatesIn(zone)(date);
}

/** A wire date (`2026-05-10 23:30:00`) as ISO 8601 without a zone (`2026-05-10T23:30:00`). */
export function wireToLocalIso(wire: string): string {
  return wire.replace(' ', 'T');
}

/** `date`'s wall-clock time as ISO 8601 without a zone (`yyyy-MM-dd'T'HH:mm:ss`), as toWire builds it. */
export function toLocalIso(date: DateTime): string {
  return wireToLocalIso(toWire(date));
}

export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

export function details(date: DateTime): DateDetails {
  return {
    year: pad(date.year, 4),
    month: pad(date.month),
    day: pad(date.day),
    hour: pad(date.hour),
    minutes: pad(date.minute),
    seconds: pad(date.second),
  };
}

/** details() of the instant `date` in UTC, without luxon's zone work. */
export function utcDetails(date: Date): DateDetails {
  return {
    year: pad(date.getUTCFullYear(), 4),
    month: pad(date.getUTCMonth() + 1),
    day: pad(date.getUTCDate()),
    hour: pad(date.getUTCHours()),
    minutes: pad(date.getUTCMinutes()),
    seconds: pad(date.getUTCSeconds()),
  };
}

/**
 * The IANA name of `zone` (any case, links resolved: `europe/paris` → `Europe/Paris`,
 * `Asia/Calcutta` → `Asia/Kolkata`), or null when it is not an IANA time zone: offsets such as
 * `UTC+2` are not, though luxon would read them. Memoised: asking Intl costs ~140 µs, and every
 * event write checks its zone.
 */
export const canonicalTimeZone: (zone: string) => string | null = boundedMemo(1_000, (zone) => zone, ianaTimeZone);

export function isTimeZone(zone: string): boolean {
  return canonicalTimeZone(zone) !== null;
}
