import { DateTime, IANAZone } from 'luxon';

/**
 * VTIMEZONE components (RFC 5545 3.6.5) made from the time zone data this process places every
 * local time with (ICU, through luxon): a feed's offsets are always the API's own, whatever rules
 * a zone adopted or dropped lately. Transitions are found from 1970 to TRANSITIONS_AHEAD years
 * ahead; transitions that recur yearly (same month, weekday, week of the month and time) are
 * written as one yearly rule, the current rules open-ended, the others one by one.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/**
 * Offsets are compared this far apart while looking for transitions: a change and its reversal
 * closer than this would go unseen.
 */
const SCAN_STEP_MS = 7 * DAY_MS;
const FIRST_YEAR = 1970;
/** Years of transitions computed ahead: enough for a yearly rule to show every weekday position. */
const TRANSITIONS_AHEAD = 30;
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const CRLF = '\r\n';

interface Transition {
  /** The instant the offset changes. */
  at: number;
  /** Offsets before and after, in minutes east of UTC. */
  from: number;
  to: number;
  daylight: boolean;
  /** The wall clock the change happens at, in the offset before it (DTSTART of an observance). */
  wall: DateTime;
}

const offsetAt = (zone: string, at: number): number => IANAZone.create(zone).offset(at);

/** The first minute at which the offset is no longer `offsetAt(lo)`, with `hi` known to differ. */
function firstMinuteAfter(zone: string, lo: number, hi: number): number {
  const before = offsetAt(zone, lo);
  while (hi - lo > MINUTE_MS) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
    if (offsetAt(zone, mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

function transitionsOf(zone: string, from: number, to: number): Transition[] {
  const found: Transition[] = [];
  let offset = offsetAt(zone, from);
  for (let at = from; at < to;) {
    const next = Math.min(at + SCAN_STEP_MS, to);
    if (offsetAt(zone, next) === offset) {
      at = next;
      continue;
    }
    // Scanned on from the change itself: a second one within the same step is found too.
    at = firstMinuteAfter(zone, at, next);
    const after = offsetAt(zone, at);
    found.push({
      at,
      from: offset,
      to: after,
      daylight: DateTime.fromMillis(at, { zone }).isInDST,
      wall: DateTime.fromMillis(at + offset * MINUTE_MS, { zone: 'UTC' }),
    });
    offset = after;
  }
  return found;
}

/** Whether `t` may recur `first` in a later year under one rule: same offsets, month, weekday and time of day. */
const sameRule = (t: Transition, first: Transition): boolean =>
  t.from === first.from &&
  t.to === first.to &&
  t.wall.month === first.wall.month &&
  t.wall.weekday === first.wall.weekday &&
  t.wall.toFormat('HHmmss') === first.wall.toFormat('HHmmss');

/**
 * Indexes of the transitions recurring `transitions[i]` year after year under one rule: the same
 * weekday within one seven-day window of the month (the second Sunday, the last, the first on or
 * after the 2nd...).
 */
function yearlyRun(transitions: Transition[], i: number, used: Set<number>): number[] {
  const first = transitions[i]!;
  const run = [i];
  let [min, max] = [first.wall.day, first.wall.day];
  for (let j = i + 1, year = first.wall.year + 1; j < transitions.length; j++) {
    const t = transitions[j]!;
    if (t.wall.year > year) break;
    const day = t.wall.day;
    if (t.wall.year !== year || used.has(j) || !sameRule(t, first)) continue;
    if (Math.max(max, day) - Math.min(min, day) > 6) continue;
    run.push(j);
    [min, max] = [Math.min(min, day), Math.max(max, day)];
    year++;
  }
  return run;
}

/** The days of the month a run of transitions fell on, as RRULE parts (BYDAY, or BYMONTHDAY and BYDAY). */
function daysRule(run: Transition[]): string {
  const days = run.map((t) => t.wall.day);
  const [min, max] = [Math.min(...days), Math.max(...days)];
  const { month, weekday, daysInMonth } = run[0]!.wall;
  const day = DAYS[weekday - 1]!;
  const week = Math.ceil(max / 7);
  if (week <= 4 && 7 * week - 6 <= min) return `BYDAY=${week}${day}`;
  if (month !== 2 && min >= (daysInMonth ?? 31) - 6) return `BYDAY=-1${day}`;
  const first = Math.max(1, max - 6);
  return `BYMONTHDAY=${Array.from({ length: 7 }, (_, k) => first + k).join(',')};BYDAY=${day}`;
}

/** Years a run of transitions must last to be written as a yearly rule. */
const MIN_RULE_YEARS = 3;

interface Observance {
  first: Transition;
  /** A yearly rule's parts after BYMONTH and, unless it still applies at the last year computed, its last transition. */
  rule?: { days: string; last?: Transition };
}

/** The transitions as observances: each run of yearly ones under one rule as one, the others alone. */
function observancesOf(transitions: Transition[], lastYear: number): Observance[] {
  const observances: Observance[] = [];
  const used = new Set<number>();
  transitions.forEach((t, i) => {
    if (used.has(i)) return;
    const run = yearlyRun(transitions, i, used);
    if (run.length < MIN_RULE_YEARS) {
      used.add(i);
      observances.push({ first: t });
      return;
    }
    for (const j of run) used.add(j);
    const last = transitions[run.at(-1)!]!;
    const days = daysRule(run.map((j) => transitions[j]!));
    observances.push({ first: t, rule: last.wall.year >= lastYear - 1 ? { days } : { days, last } });
  });
  return observances;
}

const offsetText = (minutes: number): string => {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
};
const basicUtc = (at: number): string => DateTime.fromMillis(at, { zone: 'UTC' }).toFormat("yyyyMMdd'T'HHmmss'Z'");

function observanceLines({ first, rule }: Observance): string[] {
  const kind = first.daylight ? 'DAYLIGHT' : 'STANDARD';
  const lines = [
    `BEGIN:${kind}`,
    `TZOFFSETFROM:${offsetText(first.from)}`,
    `TZOFFSETTO:${offsetText(first.to)}`,
    `DTSTART:${first.wall.toFormat("yyyyMMdd'T'HHmmss")}`,
  ];
  if (rule) {
    const until = rule.last ? `;UNTIL=${basicUtc(rule.last.at)}` : '';
    lines.push(`RRULE:FREQ=YEARLY;BYMONTH=${first.wall.month};${rule.days}${until}`);
  }
  lines.push(`END:${kind}`);
  return lines;
}

/** Made once per zone and process. */
const components = new Map<string, string | null>();

/**
 * The VTIMEZONE of an IANA zone as CRLF-terminated lines; null for a zone this process does not
 * know, or UTC under another name (`Etc/UTC`, `GMT`: its events are written in UTC).
 */
export function vtimezone(zone: string, now = new Date()): string | null {
  let component = components.get(zone);
  if (component === undefined) {
    component = DateTime.now().setZone(zone).isValid ? componentOf(zone, now) : null;
    components.set(zone, component);
  }
  return component;
}

function componentOf(zone: string, now: Date): string | null {
  const from = Date.UTC(FIRST_YEAR, 0, 1);
  const lastYear = now.getUTCFullYear() + TRANSITIONS_AHEAD;
  const transitions = transitionsOf(zone, from, Date.UTC(lastYear, 11, 31));
  const initial = offsetAt(zone, from);
  if (transitions.length === 0 && initial === 0) return null;
  const observances: Observance[] = [
    {
      first: {
        at: from,
        from: initial,
        to: initial,
        daylight: false,
        wall: DateTime.fromMillis(from + initial * MINUTE_MS, { zone: 'UTC' }),
      },
    },
    ...observancesOf(transitions, lastYear),
  ];
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`, ...observances.flatMap(observanceLines), 'END:VTIMEZONE'];
  return lines.join(CRLF) + CRLF;
}
