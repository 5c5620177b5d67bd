import { DateTime } from 'luxon';
import { presentEventDates } from '../domain/eventDates';
import { isoDate } from './jsonLd';
import type { Occurrence, SeriesDates } from '../domain/recurrence/expand';
import { seriesOccurrences, type SeriesFields } from '../domain/recurrence/overrides';
import { parseRecurrenceLines, type ParsedRecurrence } from '../domain/recurrence/lines';

/** Occurrences a series read lists in `next_occurrences` (EXTENSIONS part 11). */
export const NEXT_OCCURRENCES = 10;

/** An occurrence's dates as lists present them. */
export function occurrenceDates(series: SeriesDates, occurrence: Occurrence) {
  return presentEventDates({ ...series, start: occurrence.start, end: occurrence.end });
}

/** The next occurrences of a stored series, from `now` up to `horizon`, moved ones at their dates. */
export function nextOccurrences(series: SeriesFields, now: Date, horizon: Date): Record<string, unknown>[] {
  const upcoming = seriesOccurrences(series, horizon)
    .filter((o) => o.end >= now)
    .sort((a, b) => a.start.getTime() - b.start.getTime());
  return upcoming.slice(0, NEXT_OCCURRENCES).map((occurrence) => {
    const dates = occurrenceDates(series, occurrence);
    return {
      start_date: dates.start_date,
      end_date: dates.end_date,
      utc_start_date: dates.utc_start_date,
      utc_end_date: dates.utc_end_date,
      recurrence_id: occurrence.recurrenceId,
    };
  });
}

const SCHEMA_DAYS: Record<string, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};
const DURATION_UNIT: Record<string, string> = { YEARLY: 'Y', MONTHLY: 'M', WEEKLY: 'W', DAILY: 'D', HOURLY: 'H' };
/** Rule parts a schema.org Schedule can say (byDay only without ordinals, in checks below). */
const SCHEDULE_PARTS = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'WKST']);

/**
 * The schema.org `Schedule` of a series (`eventSchedule`), or null when the recurrence says more
 * than a Schedule can (RDATE/EXDATE, ordinals such as `-1FR`, BYSETPOS...): the caller lists
 * `subEvent`s instead.
 */
export function eventSchedule(parsed: ParsedRecurrence, series: SeriesDates): Record<string, unknown> | null {
  const rule = parsed.rule;
  if (!rule || parsed.rdates.length > 0 || parsed.exdates.length > 0) return null;
  if ([...rule.keys()].some((key) => !SCHEDULE_PARTS.has(key))) return null;
  const days = rule.get('BYDAY')?.split(',');
  if (days?.some((day) => !SCHEMA_DAYS[day])) return null;
  const start = DateTime.fromJSDate(series.start, { zone: series.timezone });
  const end = DateTime.fromJSDate(series.end, { zone: series.timezone });
  const until = rule.get('UNTIL');
  const schedule: Record<string, unknown> = {
    '@type': 'Schedule',
    repeatFrequency: `P${rule.get('FREQ') === 'HOURLY' ? 'T' : ''}${rule.get('INTERVAL') ?? 1}${DURATION_UNIT[rule.get('FREQ')!]}`,
    startDate: start.toISODate(),
    scheduleTimezone: series.timezone,
  };
  if (!series.all_day) {
    schedule.startTime = start.toFormat('HH:mm:ss');
    schedule.endTime = end.toFormat('HH:mm:ss');
  }
  if (days) schedule.byDay = days.map((day) => `https://schema.org/${SCHEMA_DAYS[day]}`);
  if (rule.has('BYMONTHDAY')) schedule.byMonthDay = rule.get('BYMONTHDAY')!.split(',').map(Number);
  if (rule.has('BYMONTH')) schedule.byMonth = rule.get('BYMONTH')!.split(',').map(Number);
  if (rule.has('COUNT')) schedule.repeatCount = Number(rule.get('COUNT'));
  if (until) schedule.endDate = `${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}`;
  return schedule;
}

/** What a series read adds (EXTENSIONS part 11): the lines as stored, the next occurrences, JSON-LD. */
export function seriesReadFields(
  series: SeriesFields & { recurrence: string[] },
  jsonLd: Record<string, unknown>,
  now: Date,
  horizon: Date,
): Record<string, unknown> {
  const { recurrence } = series;
  const next = nextOccurrences(series, now, horizon);
  // A Schedule cannot say that one occurrence moved or changed.
  const schedule = series.occurrence_overrides?.length ? null : eventSchedule(parseRecurrenceLines(recurrence), series);
  // Dated as the series itself is: days for an all-day series, local times with their offset.
  const subEvents = next.map((o) => {
    const dated = {
      start_date: String(o.start_date),
      end_date: String(o.end_date),
      utc_start_date: String(o.utc_start_date),
      utc_end_date: String(o.utc_end_date),
      timezone: series.timezone,
      all_day: Boolean(series.all_day),
    };
    return { '@type': 'Event', name: jsonLd.name, startDate: isoDate(dated, 'start'), endDate: isoDate(dated, 'end') };
  });
  return {
    recurrence,
    next_occurrences: next,
    json_ld: schedule ? { ...jsonLd, eventSchedule: schedule } : { ...jsonLd, subEvent: subEvents },
  };
}
