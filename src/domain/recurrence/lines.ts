import { DateTime } from 'luxon';
import { isTimeZone } from '../dates';

/**
 * An event's recurrence as RFC 5545 content lines (EXTENSIONS part 11): at most one RRULE, any
 * number of RDATE and EXDATE lines. Times without a zone are read in the event's time zone.
 */
export interface ParsedRecurrence {
  /** The RRULE value's parts, upper case, validated (`FREQ`, `BYDAY`...); null without a rule. */
  rule: Map<string, string> | null;
  rdates: LineDate[];
  exdates: LineDate[];
}

/** A date of an RDATE/EXDATE line: a local wall clock in `zone`, an instant (`Z`), or a day. */
export type LineDate =
  | { kind: 'instant'; at: Date }
  | { kind: 'local'; wall: WallClock; zone: string | null }
  | { kind: 'day'; wall: WallClock };

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Thrown with the message a 400 names `recurrence` with. */
export class RecurrenceError extends Error {
  override name = 'RecurrenceError';
}

const DAY = '(?:MO|TU|WE|TH|FR|SA|SU)';
const list = (item: string) => new RegExp(`^${item}(?:,${item}){0,365}$`);
const signed = (max: number) => ({ re: list('[+-]?\\d{1,3}'), min: -max, max, zero: false });
const unsigned = (min: number, max: number) => ({ re: list('\\d{1,2}'), min, max, zero: true });

/** The rule parts RFC 5545 defines and the values each takes (numbers within min..max). */
const PARTS: Record<string, { re: RegExp; min?: number; max?: number; zero?: boolean }> = {
  FREQ: { re: /^(?:YEARLY|MONTHLY|WEEKLY|DAILY|HOURLY)$/ },
  UNTIL: { re: /^\d{8}(?:T\d{6}Z?)?$/ },
  COUNT: { re: /^[1-9]\d{0,8}$/ },
  INTERVAL: { re: /^[1-9]\d{0,3}$/ },
  BYSECOND: unsigned(0, 60),
  BYMINUTE: unsigned(0, 59),
  BYHOUR: unsigned(0, 23),
  BYDAY: { re: list(`(?:[+-]?\\d{1,2})?${DAY}`) },
  BYMONTHDAY: signed(31),
  BYYEARDAY: signed(366),
  BYWEEKNO: signed(53),
  BYMONTH: unsigned(1, 12),
  BYSETPOS: signed(366),
  WKST: { re: new RegExp(`^${DAY}$`) },
};

function parseRule(value: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const part of value.split(';')) {
    const [name, val, ...rest] = part.split('=');
    const key = (name ?? '').trim().toUpperCase();
    const text = (val ?? '').trim().toUpperCase();
    if (key === 'FREQ' && (text === 'SECONDLY' || text === 'MINUTELY'))
      throw new RecurrenceError(`FREQ=${text} is not supported: the shortest frequency is HOURLY`);
    const spec = PARTS[key];
    if (!spec) throw new RecurrenceError(`RRULE has an unknown part "${key || part}"`);
    if (rest.length > 0 || !spec.re.test(text)) throw new RecurrenceError(`RRULE ${key}=${text} is not valid`);
    if (parts.has(key)) throw new RecurrenceError(`RRULE has ${key} more than once`);
    if (spec.min !== undefined) {
      for (const item of text.split(',').map(Number)) {
        if (item < spec.min || item > (spec.max as number) || (item === 0 && !spec.zero))
          throw new RecurrenceError(`RRULE ${key} values are between ${spec.min} and ${spec.max}: ${text}`);
      }
    }
    if (key === 'BYDAY') {
      for (const item of text.split(',')) {
        const ordinal = Number(item.slice(0, -2) || '1');
        if (ordinal === 0 || Math.abs(ordinal) > 53) throw new RecurrenceError(`RRULE BYDAY=${text} is not valid`);
      }
    }
    parts.set(key, text);
  }
  if (!parts.has('FREQ')) throw new RecurrenceError('RRULE needs FREQ');
  if (parts.has('COUNT') && parts.has('UNTIL')) throw new RecurrenceError('RRULE takes COUNT or UNTIL, not both');
  checkPartsOfFrequency(parts);
  return parts;
}

/** The parts RFC 5545 (3.3.10) forbids at some frequencies. */
function checkPartsOfFrequency(parts: Map<string, string>): void {
  const freq = parts.get('FREQ') as string;
  const refuse = (part: string) => {
    throw new RecurrenceError(`RRULE ${part} cannot be used with FREQ=${freq} (RFC 5545)`);
  };
  if (parts.has('BYWEEKNO') && freq !== 'YEARLY') refuse('BYWEEKNO');
  if (parts.has('BYYEARDAY') && ['DAILY', 'WEEKLY', 'MONTHLY'].includes(freq)) refuse('BYYEARDAY');
  if (parts.has('BYMONTHDAY') && freq === 'WEEKLY') refuse('BYMONTHDAY');
  const ordinals = (parts.get('BYDAY') ?? '').split(',').some((day) => /\d/.test(day));
  if (ordinals && (!['MONTHLY', 'YEARLY'].includes(freq) || parts.has('BYWEEKNO'))) refuse('BYDAY with an ordinal');
}

const DATE_TIME = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;

function wallOf(match: RegExpExecArray): WallClock {
  const [, y, mo, d, h, mi, s] = match;
  const wall = { year: +y!, month: +mo!, day: +d!, hour: +(h ?? 0), minute: +(mi ?? 0), second: +(s ?? 0) };
  const check = DateTime.fromObject(wall, { zone: 'UTC' });
  if (!check.isValid || check.day !== wall.day || wall.year < 1) throw new RecurrenceError('invalid date');
  return wall;
}

/** Whether `text` (a DATE or DATE-TIME value) names a day and time that exist on the calendar. */
export function isRealDate(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  try {
    wallOf(match);
    return true;
  } catch {
    return false;
  }
}

/** `EXDATE;TZID=Europe/Paris:20270105T100000,20270112T100000` and its kin. */
function parseDates(name: string, params: string[], value: string): LineDate[] {
  let zone: string | null = null;
  let valueType = 'DATE-TIME';
  for (const param of params) {
    const [key, val = ''] = param.split('=');
    if (key?.toUpperCase() === 'TZID' && isTimeZone(val)) zone = val;
    else if (key?.toUpperCase() === 'VALUE' && /^(DATE|DATE-TIME)$/i.test(val)) valueType = val.toUpperCase();
    else throw new RecurrenceError(`${name} parameter "${param}" is not supported (TZID=zone or VALUE=DATE)`);
  }
  return value.split(',').map((item) => {
    const match = DATE_TIME.exec(item.trim());
    const isDay = match !== null && match[4] === undefined;
    if (!match || isDay !== (valueType === 'DATE') || (match[7] === 'Z' && zone !== null))
      throw new RecurrenceError(
        `${name} "${item}" is not a ${valueType === 'DATE' ? 'date (YYYYMMDD)' : 'date-time (YYYYMMDDTHHMMSS, with Z for UTC)'}`,
      );
    let wall: WallClock;
    try {
      wall = wallOf(match);
    } catch {
      throw new RecurrenceError(`${name} "${item}" is not a valid date`);
    }
    if (isDay) return { kind: 'day', wall };
    if (match[7] === 'Z')
      return {
        kind: 'instant',
        at: new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)),
      };
    return { kind: 'local', wall, zone };
  });
}

/** Most RDATE/EXDATE dates one event may carry. */
export const MAX_LINE_DATES = 1000;

/** Parses and checks the content lines; throws RecurrenceError saying what is wrong. */
export function parseRecurrenceLines(lines: string[]): ParsedRecurrence {
  const parsed: ParsedRecurrence = { rule: null, rdates: [], exdates: [] };
  for (const raw of lines) {
    const line = raw.trim();
    const colon = line.indexOf(':');
    if (colon < 0) throw new RecurrenceError(`"${line}" is not a content line (NAME:value)`);
    const [name = '', ...params] = line.slice(0, colon).split(';');
    const value = line.slice(colon + 1);
    switch (name.toUpperCase()) {
      case 'RRULE':
        if (params.length > 0) throw new RecurrenceError('RRULE takes no parameters');
        if (parsed.rule) throw new RecurrenceError('at most one RRULE line');
        parsed.rule = parseRule(value);
        break;
      case 'RDATE':
        parsed.rdates.push(...parseDates('RDATE', params, value));
        break;
      case 'EXDATE':
        parsed.exdates.push(...parseDates('EXDATE', params, value));
        break;
      default:
        throw new RecurrenceError(`"${name}" lines are not supported: RRULE, RDATE or EXDATE`);
    }
  }
  if (parsed.rdates.length + parsed.exdates.length > MAX_LINE_DATES)
    throw new RecurrenceError(`at most ${MAX_LINE_DATES} RDATE and EXDATE dates`);
  return parsed;
}
