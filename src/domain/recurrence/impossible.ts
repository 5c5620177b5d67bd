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

/** Why `rule` never matches, or null when it may. */
export function neverMatching(rule: Map<string, string>): string | null {
  const months = numbers(rule.get('BYMONTH')) ?? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const monthDays = numbers(rule.get('BYMONTHDAY'));
  if (monthDays && !months.some((month) => monthDays.some((day) => Math.abs(day) <= MONTH_DAYS[month - 1]!)))
    return 'no month it names has the BYMONTHDAY it names';
  const yearDays = numbers(rule.get('BYYEARDAY'));
  if (yearDays && rule.has('BYMONTH') && !yearDays.some((day) => monthsOfYearDay(day).some((m) => months.includes(m))))
    return 'no BYYEARDAY it names falls in a month it names';
  return null;
}
