import { getTimezone } from 'countries-and-timezones';
import { DateTime } from 'luxon';
import { ValidationError } from './errors';
import {
  details,
  isTimeZone,
  isWithinSupportedYears,
  outsideYearsMessage,
  parseDateInput,
  refusedDateMessage,
  sameWallClockIn,
  toWire,
  utcDetails,
  wireUtc,
  type DateDetails,
} from './dates';
import { boundedMemo, deepFreeze } from '../lib/memo';
import { tzAbbreviation } from './zoneAbbreviations';

/** What an event stores about its dates: UTC instants plus the zone that gives local times. */
export interface StoredEventDates {
  start: Date;
  end: Date;
  timezone: string;
  all_day: boolean;
}

/** The date fields of an event write, as validated (date texts not parsed yet). */
export interface EventDatesInput {
  start_date?: string;
  end_date?: string;
  timezone?: string;
  all_day?: boolean;
}

/**
 * Turns the date fields of a write into stored UTC instants (CONTRACT part 4).
 *
 * - Texts are read in the event's time zone (an offset or `Z` in the text wins).
 * - `all_day` defaults to false on create; on update an absent `all_day` keeps the stored value.
 *   When all-day, start snaps to 00:00:00 and end to 23:59:59 of their local days.
 * - On update, fields not sent come from `existing`, as the same instants while the zone stays
 *   (sending the zone it has changes nothing). Changing `timezone` keeps the local
 *   wall-clock times (an event "at 20:00" stays at 20:00 in its new zone) and recomputes the UTC
 *   instants: a client changing the zone is correcting where the event happens, not its clock.
 * - `end_date` before `start_date` is a 400 naming `end_date`.
 */
export function resolveEventDates(
  input: EventDatesInput,
  existing: StoredEventDates | null,
  defaultZone: string,
  now: DateTime = DateTime.now(),
): StoredEventDates {
  const zone = input.timezone === '' ? defaultZone : (input.timezone ?? existing?.timezone ?? defaultZone);
  if (!isTimeZone(zone)) throw new ValidationError({ timezone: `timezone is not a known IANA time zone: ${zone}` });
  const allDay = input.all_day ?? existing?.all_day ?? false;

  const pick = (field: 'start_date' | 'end_date', stored: Date | undefined): DateTime => {
    const text = input[field];
    if (text !== undefined && text !== '') {
      try {
        return parseDateInput(text, zone, now);
      } catch (err) {
        throw new ValidationError({ [field]: refusedDateMessage(field, err) });
      }
    }
    if (!stored || !existing) throw new ValidationError({ [field]: `${field} is required` });
    const kept = DateTime.fromJSDate(stored, { zone: existing.timezone });
    // Rebuilding an unchanged zone's instant from its wall clock would move one in a repeated hour.
    return zone === existing.timezone ? kept : sameWallClockIn(kept, zone);
  };

  let start = pick('start_date', existing?.start).set({ millisecond: 0 });
  let end = pick('end_date', existing?.end).set({ millisecond: 0 });
  if (allDay) {
    start = start.startOf('day');
    end = end.endOf('day').set({ millisecond: 0 });
  }
  // A zone change or an all-day end can carry a date that parsed within range past it.
  for (const [field, date] of [
    ['start_date', start],
    ['end_date', end],
  ] as const) {
    if (!isWithinSupportedYears(date)) throw new ValidationError({ [field]: outsideYearsMessage(field) });
  }
  if (end < start) throw new ValidationError({ end_date: 'end_date must not be before start_date' });
  return { start: start.toJSDate(), end: end.toJSDate(), timezone: zone, all_day: allDay };
}

export interface PresentedEventDates {
  all_day: boolean;
  start_date: string;
  start_date_details: DateDetails;
  end_date: string;
  end_date_details: DateDetails;
  utc_start_date: string;
  utc_start_date_details: DateDetails;
  utc_end_date: string;
  utc_end_date_details: DateDetails;
  timezone: string;
  timezone_abbr: string;
}

// Locales whose short zone names are the familiar abbreviations for different regions
// (en-US: EST/PST, en-GB: CET/BST, en-AU: AEST, en-IN: IST, en-ZA: SAST, ja-JP: JST).
const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-ZA', 'ja-JP'];

/**
 * `CET`, `CEST`, `EST`, `MSK`, `UTC`...; an offset (`-03`, `+0530`) where the zone has no name.
 * The tz database's abbreviation at that instant, as PHP (and so The Events Calendar) prints it;
 * where it has none (local mean time, a zone newer than the table), ICU's name, else the offset.
 */
export function timezoneAbbreviation(date: DateTime): string {
  return tzAbbreviation(date.zoneName ?? '', date.offset, date.toSeconds()) ?? icuAbbreviation(date);
}

/**
 * English as spoken in the zone's own countries comes first: only there does ICU know many local
 * names (Dublin's summer `IST`, Jakarta's `WIB`, Hong Kong's `HKT`, Newfoundland's `NST`).
 */
function abbreviationLocales(zone: string | null): string[] {
  const countries = (zone && getTimezone(zone)?.countries) || [];
  return [...countries.map((country) => `en-${country}`), ...ABBREVIATION_LOCALES];
}

/**
 * Memoised by zone, offset and year: looking one up formats the date in several locales (a new
 * Intl.DateTimeFormat each).
 */
const icuAbbreviation: (date: DateTime) => string = boundedMemo(
  10_000,
  (date) => `${date.zoneName}|${date.offset}|${date.year}`,
  (date) => {
    for (const locale of abbreviationLocales(date.zoneName)) {
      const name = date.setLocale(locale).offsetNameShort;
      if (name && !/^(GMT|UTC)[+-−]/.test(name) && /^[A-Z]{2,5}$/.test(name)) return name;
    }
    return offsetName(date.offset);
  },
);

/** `+08`, `-0330`, or with seconds for a local mean time (`-045602`, New York before 1883). */
function offsetName(offsetMinutes: number): string {
  const total = Math.round(Math.abs(offsetMinutes) * 60);
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  const rest = seconds ? `${pad(minutes)}${pad(seconds)}` : minutes ? pad(minutes) : '';
  return `${offsetMinutes < 0 ? '-' : '+'}${pad(hours)}${rest}`;
}

/**
 * The date fields of an API event (CONTRACT part 3); the result is frozen (it may be shared).
 * Memoised by instant, zone and all-day flag: an event is presented once per language (and
 * lists of events share dates), and zone conversions are the dearest part of presenting.
 */
export const presentEventDates: (dates: StoredEventDates) => PresentedEventDates = boundedMemo(
  10_000,
  (dates) => `${dates.start.getTime()}|${dates.end.getTime()}|${dates.timezone}|${dates.all_day}`,
  (dates) => deepFreeze(computeEventDates(dates)),
);

function computeEventDates(dates: StoredEventDates): PresentedEventDates {
  const start = DateTime.fromJSDate(dates.start, { zone: dates.timezone });
  const end = DateTime.fromJSDate(dates.end, { zone: dates.timezone });
  return {
    all_day: dates.all_day,
    start_date: toWire(start),
    start_date_details: details(start),
    end_date: toWire(end),
    end_date_details: details(end),
    utc_start_date: wireUtc(dates.start),
    utc_start_date_details: utcDetails(dates.start),
    utc_end_date: wireUtc(dates.end),
    utc_end_date_details: utcDetails(dates.end),
    timezone: dates.timezone,
    timezone_abbr: timezoneAbbreviation(start),
  };
}
