import { ValidationError } from '../errors';
import { MAX_YEAR } from '../dates';
import {
  checkValueTypes,
  endsWithinSupportedYears,
  floating,
  occurrencesFrom,
  ruleBounds,
  ruleOptionsText,
  type SeriesDates,
} from './expand';
import { guardedRuleStarts } from './guardedExpansion';
import { neverMatching, unreachableSetPosition } from './impossible';
import { isRealDate, parseRecurrenceLines, RecurrenceError, type ParsedRecurrence } from './lines';

export interface RecurrenceLimits {
  maxOccurrences: number;
  horizonDays: number;
}

const DAY_MS = 86_400_000;
/** Periods rrule may step through from DTSTART to the horizon (checked before expanding). */
export const MAX_RULE_PERIODS = 50_000;
/** Occurrences expanded from DTSTART when checking a rule. */
const CHECK_CAP = 50_000;
const PERIOD_DAYS: Record<string, number> = { YEARLY: 365.25, MONTHLY: 30.4, WEEKLY: 7, DAILY: 1, HOURLY: 1 / 24 };

export function horizonOf(limits: RecurrenceLimits, now: Date): Date {
  return new Date(now.getTime() + limits.horizonDays * DAY_MS);
}

const refuse = (message: string) => new ValidationError({ recurrence: `recurrence: ${message}` });

/**
 * Parses and checks a written recurrence (EXTENSIONS part 11) against the series' dates: a 400
 * naming `recurrence` when a line is malformed, the rule too costly to expand, or it has more than
 * `maxOccurrences` occurrences between now and the horizon. The work is bounded twice: the
 * periods to step through are counted before expanding, and the expansion runs on a thread with
 * a deadline (guardedExpansion.ts).
 */
export async function checkRecurrence(
  lines: string[],
  series: SeriesDates,
  limits: RecurrenceLimits,
  now = new Date(),
): Promise<ParsedRecurrence> {
  let parsed: ParsedRecurrence;
  try {
    parsed = parseRecurrenceLines(lines);
    checkValueTypes(parsed, series);
    // Checked on write only: a series stored before kept its UNTIL, read as it was then.
    const until = parsed.rule?.get('UNTIL');
    if (until !== undefined && !isRealDate(until))
      throw new RecurrenceError(`RRULE UNTIL=${until} is not a valid date`);
  } catch (err) {
    if (err instanceof RecurrenceError) throw refuse(err.message);
    throw err;
  }
  const horizon = horizonOf(limits, now);
  // Starts from a day past now's wall clock are upcoming whatever the zone does with them.
  const surelyUpcoming = new Date(floating(now, series.timezone).getTime() + DAY_MS);
  let starts: Date[] = [];
  if (parsed.rule) {
    const never = neverMatching(parsed.rule);
    if (never) throw refuse(`the rule never matches: ${never}`);
    const unreachable = unreachableSetPosition(parsed.rule);
    if (unreachable) throw refuse(unreachable);
    const bounds = ruleBounds(parsed.rule, series, horizon);
    const spanDays = Math.max(0, (bounds.until.getTime() - bounds.dtstart.getTime()) / DAY_MS);
    const interval = Number(parsed.rule.get('INTERVAL') ?? 1);
    const periods = spanDays / (PERIOD_DAYS[parsed.rule.get('FREQ')!]! * interval);
    if (periods > MAX_RULE_PERIODS)
      throw refuse(
        `the rule repeats ${parsed.rule.get('FREQ')} for too long before the horizon (more than ${MAX_RULE_PERIODS} periods): start the series later or give it an end`,
      );
    // Expanding stops once the limit is passed, EXDATEs allowed for: enough to refuse the rule.
    const expanded = await guardedRuleStarts({
      text: ruleOptionsText(parsed.rule),
      bounds,
      cap: CHECK_CAP,
      from: surelyUpcoming,
      limit: limits.maxOccurrences + parsed.exdates.length,
    });
    if (!expanded || expanded.length >= CHECK_CAP)
      throw refuse('the rule is too costly to expand (it matches rarely or never, or far too often)');
    // Refused whether or not the walk ended in time (else the load would decide), and because
    // every later expansion would walk it again.
    if (expanded.length === 0)
      throw refuse(`the rule matches no date from the start to its end or ${limits.horizonDays} days ahead`);
    starts = expanded;
  }
  const tooMany = () =>
    refuse(
      `more than RECURRENCE_MAX_OCCURRENCES (${limits.maxOccurrences}) occurrences between now and ${limits.horizonDays} days ahead: give the rule an end (COUNT or UNTIL) or repeat it less often`,
    );
  // Placing each start in the zone (luxon) costs far more than expanding it: refused before when
  // enough are surely upcoming (each EXDATE removes at most one).
  if (starts.filter((start) => start >= surelyUpcoming).length - parsed.exdates.length > limits.maxOccurrences)
    throw tooMany();
  const occurrences = occurrencesFrom(parsed, series, starts, horizon);
  const upcoming = occurrences.filter((o) => o.start >= now).length;
  if (upcoming > limits.maxOccurrences) throw tooMany();
  const last = occurrences[occurrences.length - 1];
  if (last && !endsWithinSupportedYears(last, series.timezone))
    throw refuse(`occurrences would end after the year ${MAX_YEAR}: shorten the event or end the rule sooner`);
  return parsed;
}
