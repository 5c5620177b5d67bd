import { DateTime } from 'luxon';
import { RRule } from 'rrule';
import { isWithinSupportedYears } from '../dates';
import { RecurrenceError, type LineDate, type ParsedRecurrence, type WallClock } from './lines';
import { offsetAt, offsetsBetween } from './zoneOffsets';

/**
 * Expansion of a recurrence in the event's time zone (RFC 5545). rrule works on "floating" times
 * (wall clocks written as UTC dates): the rule is expanded on the series' local wall clock, and
 * each local time is then placed in the zone, so 10:00 stays 10:00 across daylight-saving changes.
 */

/** The first occurrence (DTSTART) and the duration every occurrence has. */
export interface SeriesDates {
  start: Date;
  end: Date;
  timezone: string;
  all_day: boolean;
}

export interface Occurrence {
  start: Date;
  end: Date;
  /** The occurrence's original start in UTC basic form (`20270105T090000Z`). */
  recurrenceId: string;
  /** 1 for DTSTART, counting every occurrence since. */
  index: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The wall clock of `instant` in `zone`, as a floating date. */
export function floating(instant: Date, zone: string): Date {
  const local = DateTime.fromJSDate(instant, { zone });
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
}

export const wallOfFloating = (date: Date): WallClock => ({
  year: date.getUTCFullYear(),
  month: date.getUTCMonth() + 1,
  day: date.getUTCDate(),
  hour: date.getUTCHours(),
  minute: date.getUTCMinutes(),
  second: date.getUTCSeconds(),
});

/**
 * The instant of a local wall clock in `zone`, as RFC 5545 3.3.5 reads one: a time skipped by a
 * daylight-saving change uses the offset before the gap (02:30 → 03:30 the day clocks go
 * forward); a time that occurs twice is the first of the two.
 */
export function placeWallClock(wall: WallClock, zone: string): Date {
  const local = wallMillis(wall);
  // Each offset the zone has around it places the wall clock at an instant; a placement holds
  // where its offset is in effect then. Two hold in a repeated hour (the first is taken); none
  // in a skipped one, placed with the offset before the gap (a day earlier: no zone changes twice
  // in a day).
  let first: number | undefined;
  for (const offset of offsetsBetween(zone, local - 2 * DAY_MS, local + 2 * DAY_MS)) {
    const at = local - offset * MINUTE_MS;
    if (offsetAt(zone, at) === offset && (first === undefined || at < first)) first = at;
  }
  return new Date(first ?? local - offsetAt(zone, local - DAY_MS) * MINUTE_MS);
}

/** A wall clock's fields as a UTC instant (any year: Date.UTC reads 0-99 as 1900-1999). */
function wallMillis(wall: WallClock): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  return date.setUTCHours(wall.hour, wall.minute, wall.second, 0);
}

/** `20270105T090000Z` */
export function recurrenceIdOf(start: Date): string {
  return start
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The instant a RDATE/EXDATE date stands for in a series in `zone`. */
export function instantOf(date: LineDate, zone: string): Date {
  if (date.kind === 'instant') return date.at;
  return placeWallClock(date.wall, date.kind === 'local' ? (date.zone ?? zone) : zone);
}

/** RRULE's UNTIL as a floating date (a day is inclusive: its last second). */
export function untilFloating(text: string, series: SeriesDates): Date {
  const [, y, mo, d, h, mi, s, z] = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(text)!;
  if (h === undefined) return new Date(Date.UTC(+y!, +mo! - 1, +d!, 23, 59, 59));
  const wall = new Date(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi!, +s!));
  return z ? floating(wall, series.timezone) : wall;
}

/** The rule text rrule parses, without UNTIL (given as a floating date instead). */
export function ruleOptionsText(rule: Map<string, string>): string {
  return [...rule]
    .filter(([key]) => key !== 'UNTIL')
    .map(([key, value]) => `${key}=${value}`)
    .join(';');
}

/** Checks that RDATE/EXDATE values have the series' value type (RFC 5545: DTSTART's). */
export function checkValueTypes(parsed: ParsedRecurrence, series: SeriesDates): void {
  for (const [name, dates] of [
    ['RDATE', parsed.rdates],
    ['EXDATE', parsed.exdates],
  ] as const) {
    if (dates.some((date) => (date.kind === 'day') !== series.all_day))
      throw new RecurrenceError(
        series.all_day
          ? `${name} of an all-day series are dates: ${name};VALUE=DATE:YYYYMMDD`
          : `${name} of a timed series are date-times (YYYYMMDDTHHMMSS, with Z for UTC); VALUE=DATE is for all-day series`,
      );
  }
}

export interface RuleBounds {
  /** The rule's floating DTSTART and where its expansion stops (floating). */
  dtstart: Date;
  until: Date;
}

/** Where a rule's expansion starts and stops, as floating dates, for occurrences up to `to`. */
export function ruleBounds(rule: Map<string, string>, series: SeriesDates, to: Date): RuleBounds {
  const dtstart = floating(series.start, series.timezone);
  const end = floating(to, series.timezone);
  const until = rule.has('UNTIL') ? untilFloating(rule.get('UNTIL')!, series) : end;
  return { dtstart, until: until < end ? until : end };
}

/**
 * The floating starts of a rule from DTSTART, at most `cap` of them (rrule, in process). rrule
 * 2.8.1 emits a start once per BYSETPOS position that selects it (its duplicate guard compares
 * Date objects: jkbrzt/rrule pull request 669), in order, and counts each toward COUNT: repeats
 * are skipped here and COUNT is applied to distinct starts.
 */
export function ruleStarts(rule: Map<string, string>, bounds: RuleBounds, cap: number): Date[] {
  const { count, ...options } = RRule.parseString(ruleOptionsText(rule));
  const limit = Math.min(cap, count ?? Infinity);
  const starts: Date[] = [];
  new RRule({ ...options, dtstart: bounds.dtstart, until: bounds.until, tzid: null }).all((date) => {
    if (date.getTime() !== starts.at(-1)?.getTime()) starts.push(date);
    return starts.length < limit;
  });
  return starts;
}

/**
 * Every occurrence of a series that starts at or before `to`, numbered from DTSTART (always the
 * first, as RFC 5545 has it), RDATEs added and EXDATEs removed. `starts` are the rule's floating
 * starts (ruleStarts, or the guarded check's).
 */
export function occurrencesFrom(parsed: ParsedRecurrence, series: SeriesDates, starts: Date[], to: Date): Occurrence[] {
  const zone = series.timezone;
  const instants = new Map<number, Date>();
  instants.set(series.start.getTime(), series.start);
  let placed = starts.map((start) => placeWallClock(wallOfFloating(start), zone));
  // DTSTART always counts as the first occurrence (RFC 5545 3.3.10): a rule that does not match it
  // has one start fewer within COUNT.
  const count = Number(parsed.rule?.get('COUNT') ?? Infinity);
  if (placed.length >= count && !placed.some((instant) => instant.getTime() === series.start.getTime()))
    placed = placed.slice(0, count - 1);
  for (const instant of placed) instants.set(instant.getTime(), instant);
  for (const date of parsed.rdates) {
    const instant = instantOf(date, zone);
    if (instant <= to) instants.set(instant.getTime(), instant);
  }
  for (const date of parsed.exdates) instants.delete(instantOf(date, zone).getTime());
  const sorted = [...instants.values()].sort((a, b) => a.getTime() - b.getTime());
  const endOf = endMaker(series);
  return sorted.map((start, i) => ({ start, end: endOf(start), recurrenceId: recurrenceIdOf(start), index: i + 1 }));
}

/** Occurrence ends: the same elapsed duration; all-day, the same number of days (to 23:59:59). */
function endMaker(series: SeriesDates): (start: Date) => Date {
  if (!series.all_day) {
    const duration = series.end.getTime() - series.start.getTime();
    return (start) => new Date(start.getTime() + duration);
  }
  const zone = series.timezone;
  const day = (date: Date) => DateTime.fromJSDate(date, { zone }).startOf('day');
  const days = Math.round(day(series.end).diff(day(series.start), 'days').days);
  return (start) => day(start).plus({ days }).endOf('day').set({ millisecond: 0 }).toJSDate();
}

/** Ends before this instant are in the years the API writes (to 9999) in every zone. */
const SURELY_SUPPORTED_END = Date.UTC(9999, 11, 30);

/** Whether an occurrence ends within the supported years, in UTC and in the series' zone. */
export function endsWithinSupportedYears(occurrence: Occurrence, zone: string): boolean {
  const end = occurrence.end.getTime();
  return end < SURELY_SUPPORTED_END || isWithinSupportedYears(DateTime.fromMillis(end, { zone }));
}

/** Most rule occurrences expanded in process for a stored (already checked) series. */
export const MAX_EXPANDED = 100_000;

/**
 * A stored series' occurrences up to `to` (its rule was checked when written), without those
 * that would end after the year 9999: an open-ended series of very long occurrences reaches them
 * as its window moves on.
 */
export function expandSeries(parsed: ParsedRecurrence, series: SeriesDates, to: Date): Occurrence[] {
  const starts = parsed.rule ? ruleStarts(parsed.rule, ruleBounds(parsed.rule, series, to), MAX_EXPANDED) : [];
  return occurrencesFrom(parsed, series, starts, to).filter((o) => endsWithinSupportedYears(o, series.timezone));
}
