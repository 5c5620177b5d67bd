import type { Row } from './report';
import { basicUtc } from './seriesIndexing';

/**
 * Issue 27: bad and hostile recurrences answer 400 within 50 ms. Each is sent as a POST /events
 * `repeats` times in a row, timed from the bench process (request to answer, loopback).
 */
const ROOT = '/calendar/events/v1';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

export interface HostileRule {
  label: string;
  recurrence: string[];
  /** Whether RFC 5545 and EXTENSIONS part 11 make it a 400 (false: either answer is right). */
  refused: boolean;
}

export const HOSTILE_RULES: HostileRule[] = [
  { label: 'FREQ=SECONDLY', recurrence: ['RRULE:FREQ=SECONDLY'], refused: true },
  { label: 'HOURLY, no end', recurrence: ['RRULE:FREQ=HOURLY'], refused: true },
  { label: 'HOURLY;COUNT=100000000', recurrence: ['RRULE:FREQ=HOURLY;COUNT=100000000'], refused: true },
  { label: 'HOURLY;UNTIL=99991231', recurrence: ['RRULE:FREQ=HOURLY;UNTIL=99991231'], refused: true },
  {
    label: 'HOURLY;BYYEARDAY=1..366;BYSETPOS=-366..-1',
    recurrence: [`RRULE:FREQ=HOURLY;BYYEARDAY=${range(1, 366).join(',')};BYSETPOS=-${range(1, 366).join(',-')}`],
    refused: true,
  },
  {
    label: 'DAILY;BYSETPOS=1..366',
    recurrence: [`RRULE:FREQ=DAILY;BYSETPOS=${range(1, 366).join(',')}`],
    refused: true,
  },
  {
    label: 'YEARLY;BYYEARDAY=366;BYMONTH=2 (never)',
    recurrence: ['RRULE:FREQ=YEARLY;BYYEARDAY=366;BYMONTH=2'],
    refused: true,
  },
  {
    label: 'DAILY;BYMONTH=2;BYMONTHDAY=30 (never)',
    recurrence: ['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30'],
    refused: true,
  },
  // Never matches: the series is its DTSTART alone (RFC 5545), a 201 is as right as a 400.
  {
    label: 'YEARLY;BYMONTH=2;BYMONTHDAY=30 (never)',
    recurrence: ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'],
    refused: false,
  },
  { label: 'unknown part FOO=BAR', recurrence: ['RRULE:FREQ=WEEKLY;FOO=BAR'], refused: true },
  {
    label: 'EXDATE 2027-01-12T10:00',
    recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE:2027-01-12T10:00'],
    refused: true,
  },
  {
    label: 'EXDATE with 1,001 dates',
    recurrence: [
      'RRULE:FREQ=WEEKLY;COUNT=5',
      `EXDATE:${Array.from({ length: 1001 }, (_, i) => basicUtc(new Date(Date.UTC(2030, 0, 1) + i * 3_600_000))).join(',')}`,
    ],
    refused: true,
  },
];

export interface HostileTiming {
  label: string;
  refused: boolean;
  p50: number;
  max: number;
  /** Answers by status, e.g. `{"400": 5}`. */
  statuses: Record<string, number>;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] as number;
}

/** Times each rule's POST `repeats` times; `body` gives the rest of the event. */
export async function timeHostileRules(
  apiUrl: string,
  adminKey: string,
  repeats: number,
  body: Record<string, unknown>,
): Promise<HostileTiming[]> {
  const timings: HostileTiming[] = [];
  for (const rule of HOSTILE_RULES) {
    const took: number[] = [];
    const statuses: Record<string, number> = {};
    for (let i = 0; i < repeats; i++) {
      const started = performance.now();
      const res = await fetch(`${apiUrl}${ROOT}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, title: `Hostile rule ${i}`, recurrence: rule.recurrence }),
      });
      await res.arrayBuffer();
      took.push(performance.now() - started);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
    took.sort((a, b) => a - b);
    timings.push({
      label: rule.label,
      refused: rule.refused,
      p50: Math.round(percentile(took, 0.5)),
      max: Math.round(took.at(-1) as number),
      statuses,
    });
  }
  return timings;
}

export function hostileRows(timings: HostileTiming[]): Row[] {
  return timings.map((t) => ({
    scenario: `16. POST /events ${t.label}`,
    rps: null,
    p50: t.p50,
    p99: t.max,
    baselineRps: null,
    ratio: null,
    peakRssMb: null,
    notes: `p99 column: max; answers ${Object.entries(t.statuses)
      .map(([status, n]) => `${n}× ${status}`)
      .join(', ')}${t.refused ? '' : ' (400 or 201 both right)'}`,
  }));
}
