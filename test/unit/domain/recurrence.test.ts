import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { DateTime } from 'luxon';
import { expandSeries, placeWallClock, type SeriesDates } from '../../../src/domain/recurrence/expand';
import { parseRecurrenceLines } from '../../../src/domain/recurrence/lines';
import { checkRecurrence } from '../../../src/domain/recurrence/check';

const REFERENCE = path.join(__dirname, '../../support/python/dateutil_occurrences.py');

/** python-dateutil's expansion of the same lines: the starts in UTC, up to `to`. */
function dateutilStarts(dtstart: string, tz: string, lines: string[], to: Date): string[] {
  const input = JSON.stringify({ dtstart, tz, lines, to: to.toISOString() });
  const occurrences = JSON.parse(execFileSync('python3', [REFERENCE], { input, encoding: 'utf8' })) as {
    utc: string;
  }[];
  return occurrences.map((occurrence) => occurrence.utc);
}

function series(dtstart: string, tz: string, minutes = 60, allDay = false): SeriesDates {
  const start = DateTime.fromISO(dtstart, { zone: tz });
  const end = allDay ? start.endOf('day').set({ millisecond: 0 }) : start.plus({ minutes });
  return { start: start.toJSDate(), end: end.toJSDate(), timezone: tz, all_day: allDay };
}

const iso = (date: Date) => date.toISOString().replace('.000', '');

function compare(dtstart: string, tz: string, lines: string[], to: string, allDay = false) {
  const until = new Date(to);
  const ours = expandSeries(parseRecurrenceLines(lines), series(dtstart, tz, 60, allDay), until).map((o) =>
    iso(o.start),
  );
  const theirs = dateutilStarts(dtstart, tz, lines, until);
  expect(ours).to.deep.equal(theirs);
  return ours;
}

describe('domain/recurrence: expansion matches python-dateutil', function () {
  this.timeout(20_000);

  it('weekly at 10:00 in America/New_York stays 10:00 local across both DST changes', () => {
    const starts = compare(
      '2027-01-05T10:00:00',
      'America/New_York',
      ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=52'],
      '2028-12-31T00:00:00Z',
    );
    expect(starts).to.have.length(52);
    expect(starts).to.include('2027-03-09T15:00:00Z').and.include('2027-03-16T14:00:00Z');
    expect(starts).to.include('2027-11-02T14:00:00Z').and.include('2027-11-09T15:00:00Z');
  });

  it('weekly on two days in Europe/Paris until a UTC time', () => {
    const starts = compare(
      '2027-03-02T10:00:00',
      'Europe/Paris',
      ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20271105T090000Z'],
      '2028-12-31T00:00:00Z',
    );
    expect(starts).to.include('2027-03-25T09:00:00Z').and.include('2027-03-30T08:00:00Z');
    expect(starts.at(-1)).to.equal('2027-11-04T09:00:00Z');
  });

  it('a local time skipped by the spring change uses the offset before the gap; a repeated one is the first', () => {
    compare('2027-03-12T02:30:00', 'America/New_York', ['RRULE:FREQ=DAILY;COUNT=5'], '2027-12-31T00:00:00Z');
    compare('2027-11-05T01:30:00', 'America/New_York', ['RRULE:FREQ=DAILY;COUNT=5'], '2027-12-31T00:00:00Z');
    expect(
      iso(placeWallClock({ year: 2027, month: 3, day: 14, hour: 2, minute: 30, second: 0 }, 'America/New_York')),
    ).to.equal('2027-03-14T07:30:00Z');
    expect(
      iso(placeWallClock({ year: 2027, month: 11, day: 7, hour: 1, minute: 30, second: 0 }, 'America/New_York')),
    ).to.equal('2027-11-07T05:30:00Z');
  });

  it('monthly on the last Friday', () => {
    const starts = compare(
      '2027-01-29T19:00:00',
      'Europe/Paris',
      ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=24'],
      '2030-01-01T00:00:00Z',
    );
    expect(starts).to.have.length(24);
  });

  it('a DTSTART the rule does not match is the first occurrence and counts within COUNT (dateutil leaves it out)', () => {
    const dtstart = '2027-01-15T09:00:00';
    for (const rule of [
      'RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=12',
      'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=5',
    ]) {
      const until = new Date('2035-01-01T00:00:00Z');
      const ours = expandSeries(parseRecurrenceLines([rule]), series(dtstart, 'Europe/Paris', 60), until).map((o) =>
        iso(o.start),
      );
      const count = Number(/COUNT=(\d+)/.exec(rule)![1]);
      const matched = dateutilStarts(dtstart, 'Europe/Paris', [rule], until);
      expect(matched).to.have.length(count);
      expect(ours).to.deep.equal(['2027-01-15T08:00:00Z', ...matched.slice(0, count - 1)]);
    }
  });

  it('yearly on 29 February skips the years without one', () => {
    const starts = compare(
      '2028-02-29T12:00:00',
      'Europe/Paris',
      ['RRULE:FREQ=YEARLY;COUNT=3'],
      '2045-01-01T00:00:00Z',
    );
    expect(starts).to.deep.equal(['2028-02-29T11:00:00Z', '2032-02-29T11:00:00Z', '2036-02-29T11:00:00Z']);
    compare(
      '2028-02-29T12:00:00',
      'America/New_York',
      ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;UNTIL=20400301T000000Z'],
      '2045-01-01T00:00:00Z',
    );
  });

  it('EXDATE and RDATE, with TZID and in UTC', () => {
    const starts = compare(
      '2027-01-05T10:00:00',
      'Europe/Paris',
      [
        'RRULE:FREQ=WEEKLY;COUNT=10',
        'EXDATE;TZID=Europe/Paris:20270112T100000,20270126T100000',
        'EXDATE:20270202T090000Z',
        'RDATE;TZID=America/New_York:20270108T090000',
        'RDATE:20270301T080000Z',
      ],
      '2028-01-01T00:00:00Z',
    );
    expect(starts).to.have.length(9);
    expect(starts).to.include('2027-01-08T14:00:00Z').and.not.include('2027-01-12T09:00:00Z');
  });

  it('all-day series on the 31st of the months that have one', () => {
    const ours = expandSeries(
      parseRecurrenceLines(['RRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4', 'EXDATE;VALUE=DATE:20270331']),
      series('2027-01-31T00:00:00', 'Europe/Paris', 0, true),
      new Date('2028-01-01T00:00:00Z'),
    );
    const theirs = dateutilStarts(
      '2027-01-31T00:00:00',
      'Europe/Paris',
      ['RRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4', 'EXDATE;TZID=Europe/Paris:20270331T000000'],
      new Date('2028-01-01T00:00:00Z'),
    );
    expect(ours.map((o) => iso(o.start))).to.deep.equal(theirs);
    expect(
      ours.map((o) => DateTime.fromJSDate(o.end, { zone: 'Europe/Paris' }).toFormat('yyyy-MM-dd HH:mm:ss')),
    ).to.deep.equal(['2027-01-31 23:59:59', '2027-05-31 23:59:59', '2027-07-31 23:59:59']);
  });

  it('numbers occurrences from DTSTART and names them by their UTC start', () => {
    const [first, second] = expandSeries(
      parseRecurrenceLines(['RRULE:FREQ=DAILY;COUNT=2']),
      series('2027-01-05T10:00:00', 'Europe/Paris'),
      new Date('2028-01-01T00:00:00Z'),
    );
    expect(first).to.include({ recurrenceId: '20270105T090000Z', index: 1 });
    expect(second).to.include({ recurrenceId: '20270106T090000Z', index: 2 });
  });
});

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i).join(',');

describe('domain/recurrence: checks', () => {
  const limits = { maxOccurrences: 1000, horizonDays: 730 };
  const now = new Date('2027-01-01T00:00:00Z');
  const start = series('2027-01-05T10:00:00', 'Europe/Paris');
  const refusal = async (lines: string[]) => {
    try {
      await checkRecurrence(lines, start, limits, now);
    } catch (err) {
      return (err as { params: Record<string, string> }).params.recurrence;
    }
    return null;
  };

  for (const [lines, expected] of [
    [['RRULE:FREQ=SECONDLY'], /SECONDLY is not supported/],
    [['RRULE:FREQ=MINUTELY;COUNT=2'], /MINUTELY is not supported/],
    [['RRULE:FREQ=WEEKLY;FOO=1'], /unknown part "FOO"/],
    [['RRULE:FREQ=HOURLY'], /RECURRENCE_MAX_OCCURRENCES \(1000\)/],
    [['RRULE:FREQ=HOURLY;COUNT=100000000'], /RECURRENCE_MAX_OCCURRENCES/],
    [['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30'], /never matches/],
    [['RRULE:FREQ=DAILY;BYWEEKNO=53;BYMONTH=6'], /BYWEEKNO cannot be used with FREQ=DAILY/],
    [['RRULE:FREQ=WEEKLY;BYMONTHDAY=1'], /BYMONTHDAY cannot be used with FREQ=WEEKLY/],
    [['RRULE:FREQ=MONTHLY;BYYEARDAY=1'], /BYYEARDAY cannot be used with FREQ=MONTHLY/],
    [['RRULE:FREQ=WEEKLY;BYDAY=1MO'], /BYDAY with an ordinal cannot be used with FREQ=WEEKLY/],
    [['RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=1MO'], /BYDAY with an ordinal cannot be used with FREQ=YEARLY/],
    // Never matching: from the parts, else at the deadline or once walked; never stored.
    [['RRULE:FREQ=YEARLY;BYWEEKNO=1;BYMONTH=7'], /never matches: no BYWEEKNO week/],
    [['RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1;BYDAY=5SU'], /too costly|matches no date/],
    [['RRULE:FREQ=WEEKLY;UNTIL=20261231T000000Z'], /matches no date/],
    [[`RRULE:FREQ=DAILY;BYHOUR=${range(0, 23)}`], /RECURRENCE_MAX_OCCURRENCES/],
    [['RRULE:FREQ=WEEKLY', 'EXDATE:2027-01-12'], /EXDATE "2027-01-12" is not a date-time/],
    [['RRULE:FREQ=WEEKLY', 'EXDATE;VALUE=DATE:20270112'], /EXDATE of a timed series/],
    [['RRULE:FREQ=WEEKLY', 'RRULE:FREQ=DAILY'], /at most one RRULE/],
    [['VEVENT:X'], /not supported/],
    // UNTIL is a real date, as RDATE and EXDATE dates are.
    [['RRULE:FREQ=DAILY;UNTIL=20271235'], /UNTIL=20271235 is not a valid date/],
    [['RRULE:FREQ=DAILY;UNTIL=20271301'], /UNTIL=20271301 is not a valid date/],
    [['RRULE:FREQ=DAILY;UNTIL=20290229'], /UNTIL=20290229 is not a valid date/],
    [['RRULE:FREQ=DAILY;UNTIL=20271201T996099Z'], /UNTIL=20271201T996099Z is not a valid date/],
  ] as const) {
    it(`refuses ${lines.join(' ')}`, async () => {
      expect(await refusal([...lines])).to.match(expected);
    });
  }

  it('accepts open-ended daily rules and huge COUNT/UNTIL within the horizon', async () => {
    expect(await refusal(['RRULE:FREQ=DAILY'])).to.equal(null);
    expect(await refusal(['RRULE:FREQ=DAILY;COUNT=100000000'])).to.equal(null);
    expect(await refusal(['RRULE:FREQ=WEEKLY;UNTIL=99991231'])).to.equal(null);
    expect(await refusal(['RRULE:FREQ=DAILY;UNTIL=20280229T235959Z'])).to.equal(null);
  });

  it('refuses occurrences that would end after the year 9999; a stored series lists only those that end before', async () => {
    const endless = { ...start, end: new Date('9999-12-31T12:00:00Z') };
    const refused = await checkRecurrence(['RRULE:FREQ=WEEKLY;COUNT=3'], endless, limits, now).catch(
      (err: { params: Record<string, string> }) => err.params.recurrence,
    );
    expect(refused).to.match(/end after the year 9999/);
    const parsed = parseRecurrenceLines(['RRULE:FREQ=WEEKLY;COUNT=3']);
    const listed = expandSeries(parsed, endless, new Date('2030-01-01T00:00:00Z'));
    expect(listed.map((o) => o.index)).to.deep.equal([1]);
    expect(listed[0]!.end.toISOString()).to.equal('9999-12-31T12:00:00.000Z');
  });
});
