import {
  floating,
  instantOf,
  placeWallClock,
  recurrenceIdOf,
  untilFloating,
  wallOfFloating,
  type SeriesDates,
} from '../domain/recurrence/expand';
import { parseRecurrenceLines, type LineDate } from '../domain/recurrence/lines';

/** How a feed writes a series' DTSTART: a date, a wall clock with the series' `TZID`, or in UTC. */
export type DtstartForm = 'date' | 'zone' | 'utc';

/** `20270105T100000` of a floating date (a wall clock written as UTC fields), `20270105` its day. */
const basicWall = (wall: Date): string => recurrenceIdOf(wall).slice(0, -1);
const basicDate = (wall: Date): string => basicWall(wall).slice(0, 8);

/** A RDATE/EXDATE date in DTSTART's form, at the instant the API reads it at in the series' zone. */
function dateIn(date: LineDate, series: SeriesDates, form: DtstartForm): string {
  if (date.kind === 'day') return basicDate(new Date(Date.UTC(date.wall.year, date.wall.month - 1, date.wall.day)));
  const instant = instantOf(date, series.timezone);
  if (form === 'utc') return recurrenceIdOf(instant);
  const wall = floating(instant, series.timezone);
  return form === 'date' ? basicDate(wall) : basicWall(wall);
}

const PARAMS: Record<DtstartForm, (series: SeriesDates) => string> = {
  date: () => ';VALUE=DATE',
  zone: (series) => `;TZID=${series.timezone}`,
  utc: () => '',
};

function datesLine(name: 'RDATE' | 'EXDATE', dates: LineDate[], series: SeriesDates, form: DtstartForm): string[] {
  if (dates.length === 0) return [];
  return [`${name}${PARAMS[form](series)}:${dates.map((date) => dateIn(date, series, form)).join(',')}`];
}

/** UNTIL beside DTSTART: an instant in UTC beside a timed one, a date beside a date (RFC 5545 3.3.10). */
function untilIn(value: string, series: SeriesDates, form: DtstartForm): string {
  const wall = untilFloating(value, series);
  return form === 'date' ? basicDate(wall) : recurrenceIdOf(placeWallClock(wallOfFloating(wall), series.timezone));
}

/** DTSTART as a RDATE date: its day for an all-day series, else its instant. */
function dtstartDate(series: SeriesDates): LineDate {
  if (!series.all_day) return { kind: 'instant', at: series.start };
  return { kind: 'day', wall: wallOfFloating(floating(series.start, series.timezone)) };
}

/**
 * A series' recurrence lines as a feed writes them beside its DTSTART (RFC 5545 3.3.10, 3.8.5):
 * names and rule parts in upper case, UNTIL and every RDATE and EXDATE date in DTSTART's form.
 * The stored lines keep what was sent, where a time without a zone is the series' and UNTIL may be
 * a day or a wall clock (EXTENSIONS part 11): written as sent, a calendar would read such times as
 * floating, or drop the rule.
 */
export function feedRecurrenceLines(lines: string[], series: SeriesDates, form: DtstartForm): string[] {
  const parsed = parseRecurrenceLines(lines);
  const rule = parsed.rule
    ? [...parsed.rule].map(([part, value]) => `${part}=${part === 'UNTIL' ? untilIn(value, series, form) : value}`)
    : null;
  // DTSTART is the first instance of every series (RFC 5545 3.8.5.2), but without a rule ical.js
  // and python-dateutil expand the RDATEs alone: it is written among them too (a date twice is one).
  const rdates = rule ? parsed.rdates : [dtstartDate(series), ...parsed.rdates];
  return [
    ...(rule ? [`RRULE:${rule.join(';')}`] : []),
    ...datesLine('RDATE', rdates, series, form),
    ...datesLine('EXDATE', parsed.exdates, series, form),
  ];
}
