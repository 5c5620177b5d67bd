/**
 * Rules that can never match, told from their parts alone: rrule would walk them to the year 9999
 * (guardedExpansion.ts), so they are refused at once. Rules this cannot tell apart are left to the
 * guarded expansion.
 */

/** The most days each month has (February: 29, in leap years). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const numbers = (value: string | undefined): number[] | null => (value ? value.split(',').map(Number) : null);

/** The months (1-12) day `yearDay` of the year (negative: from the end) falls in, in common and leap years. */
function monthsOfYearDay(yearDay: number): number[] {
  return [365, 366].flatMap((length) => {
    let day = yearDay > 0 ? yearDay : length + yearDay + 1;
    if (day < 1 || day > length) return [];
    for (let month = 1; month <= 12; month++) {
      const days = month === 2 ? length - 337 : MONTH_DAYS[month - 1]!;
      if (day <= days) return [month];
      day -= days;
    }
    return [];
  });
}

interface CandidateDate {
  month: number;
  monthDay: number;
  monthLength: number;
  /** Its day of the year counted from the start (positive) and from the end (negative). */
  yearDays: number[];
}

/** Where day `offset` from 1 January of a year of `length` days falls (-1: 31 December before). */
function dateAt(offset: number, length: number): CandidateDate {
  if (offset < 0)
    return { month: 12, monthDay: 32 + offset, monthLength: 31, yearDays: [offset, 366 + offset, 367 + offset] };
  if (offset >= length) {
    const day = offset - length + 1;
    return { month: 1, monthDay: day, monthLength: 31, yearDays: [day, day - 366, day - 367] };
  }
  let day = offset + 1;
  for (let month = 1; ; month++) {
    const monthLength = month === 2 ? length - 337 : MONTH_DAYS[month - 1]!;
    if (day <= monthLength) return { month, monthDay: day, monthLength, yearDays: [offset + 1, offset - length] };
    day -= monthLength;
  }
}

/**
 * Every date the ISO weeks `weeks` (BYWEEKNO) of some year may hold, whatever weekday the year
 * starts on: week 1 begins between 29 December and 4 January.
 */
function datesOfWeeks(weeks: number[]): CandidateDate[] {
  return [365, 366].flatMap((length) =>
    [52, 53].flatMap((count) =>
      weeks.flatMap((week) => {
        const n = week > 0 ? week : count + 1 + week;
        if (n < 1 || n > count) return [];
        return Array.from({ length: 13 }, (_, i) => dateAt((n - 1) * 7 - 3 + i, length));
      }),
    ),
  );
}

/** Why `rule` never matches, or null when it may. */
export function neverMatching(rule: Map<string, string>): string | null {
  const months = numbers(rule.get('BYMONTH')) ?? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const monthDays = numbers(rule.get('BYMONTHDAY'));
  if (monthDays && !months.some((month) => monthDays.some((day) => Math.abs(day) <= MONTH_DAYS[month - 1]!)))
    return 'no month it names has the BYMONTHDAY it names';
  const yearDays = numbers(rule.get('BYYEARDAY'));
  if (yearDays && rule.has('BYMONTH') && !yearDays.some((day) => monthsOfYearDay(day).some((m) => months.includes(m))))
    return 'no BYYEARDAY it names falls in a month it names';
  const weeks = numbers(rule.get('BYWEEKNO'));
  if (weeks && !datesOfWeeks(weeks).some((date) => dateMatches(date, rule)))
    return 'no BYWEEKNO week it names holds a date its other parts name';
  return null;
}

function dateMatches(date: CandidateDate, rule: Map<string, string>): boolean {
  const months = numbers(rule.get('BYMONTH'));
  const monthDays = numbers(rule.get('BYMONTHDAY'));
  const yearDays = numbers(rule.get('BYYEARDAY'));
  return (
    (!months || months.includes(date.month)) &&
    (!monthDays || monthDays.some((d) => (d > 0 ? d : date.monthLength + d + 1) === date.monthDay)) &&
    (!yearDays || yearDays.some((d) => date.yearDays.includes(d)))
  );
}

/** The most dates one period of each frequency holds (the others: one). */
const DATES_PER_PERIOD: Record<string, number> = { YEARLY: 366, MONTHLY: 31, WEEKLY: 7 };
/** The parts that add times to each date of a period, by frequency (RFC 5545 3.3.10, "expand"). */
const TIME_EXPANSIONS: Record<string, string[]> = {
  HOURLY: ['BYMINUTE', 'BYSECOND'],
  MINUTELY: ['BYSECOND'],
  SECONDLY: [],
};
const EXPANDING_TIMES = ['BYHOUR', 'BYMINUTE', 'BYSECOND'];

/**
 * Why a BYSETPOS position of `rule` can never select a start, or null: a period's set holds at
 * most its dates times the times each date gets, and a position past that selects nothing (rrule
 * would still try each position in every period).
 */
export function unreachableSetPosition(rule: Map<string, string>): string | null {
  const positions = numbers(rule.get('BYSETPOS'));
  if (!positions) return null;
  const freq = rule.get('FREQ') ?? '';
  const times = (TIME_EXPANSIONS[freq] ?? EXPANDING_TIMES).reduce(
    (product, part) => product * new Set(numbers(rule.get(part)) ?? [0]).size,
    1,
  );
  const largest = (DATES_PER_PERIOD[freq] ?? 1) * times;
  const beyond = positions.find((position) => Math.abs(position) > largest);
  return beyond === undefined
    ? null
    : `BYSETPOS=${beyond} never selects a start: a ${freq} period holds at most ${largest} with these parts`;
}
