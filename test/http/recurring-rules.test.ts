import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect } from 'chai';
import { DateTime } from 'luxon';
import { api } from '../support/api';
import { testWorld } from '../support/harness';
import { searchReady, writeIndexed } from '../support/lists';

/**
 * Issue 27's done-when rules, each listed through `GET /events` (searched by a word of its own,
 * paged) and compared with python-dateutil's expansion of the same lines in the same zone, cut to
 * the index window (occurrences ending from a year ago, starting up to the horizon). Weekly rules
 * at 10:00 across both DST changes are in recurring-lists.test.ts; here are the local times that
 * a change skips or repeats.
 */
const REFERENCE = path.join(__dirname, '../support/python/dateutil_occurrences.py');
const YEAR_MS = 365 * 86_400_000;

interface Expected {
  utc: string;
  local: string;
  index: number;
}

interface Series {
  start: string;
  zone: string;
  lines: string[];
  /** Of every occurrence (timed series); all-day occurrences last their local day. */
  durationMinutes?: number;
  allDay?: boolean;
}

/** dateutil's occurrences of the series that the index window holds, oldest first. */
function reference(series: Series, now: DateTime): Expected[] {
  const horizon = now.plus({ days: testWorld().config.recurrence.horizonDays });
  const input = JSON.stringify({
    dtstart: series.start.replace(' ', 'T'),
    tz: series.zone,
    all_day: Boolean(series.allDay),
    lines: series.lines,
    to: horizon.toUTC().toISO({ suppressMilliseconds: true }),
  });
  const all = JSON.parse(execFileSync('python3', [REFERENCE], { input, encoding: 'utf8' })) as Expected[];
  const from = now.toMillis() - YEAR_MS;
  return all.filter((o) => {
    const start = DateTime.fromISO(o.utc);
    const end = series.allDay
      ? start.setZone(series.zone).endOf('day')
      : start.plus({ minutes: series.durationMinutes ?? 60 });
    return end.toMillis() >= from;
  });
}

/** Creates the series (published, indexed) with `word` in its title; returns its ID. */
async function createSeries(word: string, series: Series): Promise<number> {
  const start = DateTime.fromSQL(series.start, { zone: series.zone });
  const end = series.allDay ? start : start.plus({ minutes: series.durationMinutes ?? 60 });
  const created = await writeIndexed('POST', '/events', {
    title: `${word} rule check`,
    start_date: series.start,
    end_date: end.toFormat('yyyy-MM-dd HH:mm:ss'),
    timezone: series.zone,
    all_day: Boolean(series.allDay),
    recurrence: series.lines,
  });
  return created.body.id as number;
}

/** Every entry listed for `word`, page after page of `perPage`, with any date. */
async function listAll(word: string, perPage: number): Promise<any[]> {
  const entries: any[] = [];
  for (let page = 1; page <= 100; page++) {
    const res = await api.get(
      `/events?search=${word}&start_date=2000-01-01&end_date=2100-01-01&per_page=${perPage}&page=${page}`,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const events = (res.body.events ?? []) as any[];
    entries.push(...events);
    if (events.length < perPage || entries.length >= Number(res.body.total)) {
      expect(Number(res.body.total ?? 0), 'total counts every entry').to.equal(entries.length);
      break;
    }
  }
  return entries;
}

const utcOf = (entry: any) => `${String(entry.utc_start_date).replace(' ', 'T')}Z`;
const basic = (utc: string) => utc.replace(/[-:]/g, '');

/**
 * Creates the series, lists it, and checks that the entries are exactly dateutil's: starts (UTC
 * and local), recurrence IDs, indexes; returns them for the rule's own checks.
 */
async function expectListedAsDateutil(series: Series, perPage = 10): Promise<{ id: number; entries: any[] }> {
  // Random: searches forgive typos, and words of consecutive series must not be a typo apart.
  const word = `Rulecheck${randomBytes(6).toString('hex')}`;
  const now = DateTime.now();
  const id = await createSeries(word, series);
  const expected = reference(series, now);
  const entries = await listAll(word, perPage);
  expect(entries.map(utcOf), 'UTC starts').to.deep.equal(expected.map((o) => o.utc));
  expect(
    entries.map((e) => e.start_date),
    'local starts',
  ).to.deep.equal(expected.map((o) => o.local));
  expect(
    entries.map((e) => e.occurrence?.recurrence_id),
    'recurrence IDs',
  ).to.deep.equal(expected.map((o) => basic(o.utc)));
  expect(
    entries.map((e) => e.occurrence?.index),
    'indexes from DTSTART',
  ).to.deep.equal(expected.map((o) => o.index));
  for (const entry of entries) {
    expect(entry.id).to.equal(id);
    expect(entry.occurrence.series_id).to.equal(id);
  }
  return { id, entries };
}

describe('recurring events: rules listed as RFC 5545 (python-dateutil) expands them', function () {
  this.timeout(60_000);
  before(searchReady);

  it('monthly on the last Friday, without an end: every month up to the horizon, paged', async () => {
    const { entries } = await expectListedAsDateutil(
      {
        start: '2027-01-29 19:00:00',
        zone: 'America/New_York',
        lines: ['RRULE:FREQ=MONTHLY;BYDAY=-1FR'],
        durationMinutes: 120,
      },
      7,
    );
    expect(entries.length).to.be.within(20, 24);
    for (const entry of entries) {
      const day = DateTime.fromSQL(entry.start_date);
      expect(day.weekday, entry.start_date).to.equal(5);
      expect(day.plus({ weeks: 1 }).month, entry.start_date).to.not.equal(day.month);
      expect(entry.start_date.slice(11)).to.equal('19:00:00');
    }
  });

  it('yearly on 29 February from a leap year: only leap years, never the 28th or 1 March', async () => {
    const { entries } = await expectListedAsDateutil({
      start: '2024-02-29 20:00:00',
      zone: 'Europe/Paris',
      lines: ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29'],
    });
    // 2024's occurrence ended more than a year ago: the window holds 2028's alone.
    expect(entries.map((e) => e.start_date)).to.deep.equal(['2028-02-29 20:00:00']);
    expect(entries[0].occurrence.index).to.equal(2);
  });

  it('monthly on the 29th: February is skipped in 2027 and kept in the leap year 2028', async () => {
    const { entries } = await expectListedAsDateutil({
      start: '2027-01-29 12:00:00',
      zone: 'Europe/Paris',
      lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=29;COUNT=15'],
    });
    const days = entries.map((e) => e.start_date.slice(0, 10));
    expect(days).to.not.include('2027-02-28');
    expect(days).to.not.include('2027-03-01');
    expect(days).to.include('2028-02-29');
    expect(entries).to.have.length(15);
  });

  it('EXDATE and RDATE in TZID and Z forms: removed, added once, placed in their own zone', async () => {
    const { entries } = await expectListedAsDateutil({
      start: '2027-03-10 18:30:00',
      zone: 'Europe/Paris',
      lines: [
        'RRULE:FREQ=WEEKLY;COUNT=12',
        'EXDATE;TZID=Europe/Paris:20270317T183000',
        // 2027-04-07 18:30 in Paris (summer time) as a UTC instant.
        'EXDATE:20270407T163000Z',
        // Not an occurrence: removes nothing.
        'EXDATE;TZID=Europe/Paris:20270414T190000',
        'RDATE;TZID=America/New_York:20270402T120000',
        'RDATE:20270415T080000Z',
        // Already an occurrence: listed once.
        'RDATE;TZID=Europe/Paris:20270324T183000',
      ],
    });
    const starts = entries.map((e) => e.start_date);
    expect(starts).to.not.include('2027-03-17 18:30:00');
    expect(starts).to.not.include('2027-04-07 18:30:00');
    expect(starts).to.include('2027-04-02 18:00:00');
    expect(starts).to.include('2027-04-15 10:00:00');
    expect(starts.filter((s) => s === '2027-03-24 18:30:00')).to.have.length(1);
    expect(entries).to.have.length(12);
  });

  it('COUNT across the autumn change: a repeated 01:30 is the first of the two', async () => {
    const { entries } = await expectListedAsDateutil({
      start: '2027-11-02 01:30:00',
      zone: 'America/New_York',
      lines: ['RRULE:FREQ=DAILY;COUNT=10'],
      durationMinutes: 30,
    });
    expect(entries).to.have.length(10);
    const changeDay = entries.find((e) => e.start_date.startsWith('2027-11-07'));
    expect(utcOf(changeDay)).to.equal('2027-11-07T05:30:00Z');
  });

  it('UNTIL in UTC is inclusive: an occurrence starting at UNTIL is the last', async () => {
    const { entries } = await expectListedAsDateutil({
      start: '2027-03-01 19:00:00',
      zone: 'Europe/Paris',
      lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20270415T170000Z'],
    });
    expect(entries.at(-1).start_date).to.equal('2027-04-15 19:00:00');
    expect(entries).to.have.length(14);
  });

  it('UNTIL as a local time is read in the event zone, inclusive', async () => {
    const { entries } = await expectListedAsDateutil({
      start: '2027-03-02 09:00:00',
      zone: 'America/New_York',
      lines: ['RRULE:FREQ=DAILY;INTERVAL=3;UNTIL=20270320T090000'],
    });
    expect(entries.map((e) => e.start_date.slice(0, 10))).to.deep.equal([
      '2027-03-02',
      '2027-03-05',
      '2027-03-08',
      '2027-03-11',
      '2027-03-14',
      '2027-03-17',
      '2027-03-20',
    ]);
  });

  it('an all-day series with VALUE=DATE EXDATE and RDATE: whole local days, the zone offset of each', async () => {
    const { entries } = await expectListedAsDateutil({
      start: '2027-03-06 00:00:00',
      zone: 'Europe/Paris',
      allDay: true,
      lines: ['RRULE:FREQ=WEEKLY;BYDAY=SA;UNTIL=20270626', 'EXDATE;VALUE=DATE:20270410', 'RDATE;VALUE=DATE:20270414'],
    });
    const days = entries.map((e) => e.start_date.slice(0, 10));
    expect(days).to.not.include('2027-04-10');
    expect(days).to.include('2027-04-14');
    expect(days.at(-1)).to.equal('2027-06-26');
    for (const entry of entries) {
      expect(entry.all_day).to.equal(true);
      expect(entry.end_date).to.equal(`${entry.start_date.slice(0, 10)} 23:59:59`);
    }
  });

  for (const [zone, first] of [
    ['America/New_York', '2027-03-07 02:30:00'],
    ['Europe/Paris', '2027-03-21 02:30:00'],
  ] as const) {
    it(`weekly at 02:30 in ${zone}: the skipped 02:30 is 03:30 that day, a repeated 02:30 the first`, async () => {
      const { entries } = await expectListedAsDateutil(
        { start: first, zone, lines: ['RRULE:FREQ=WEEKLY;COUNT=40'], durationMinutes: 45 },
        25,
      );
      expect(entries).to.have.length(40);
      const times = entries.map((e) => e.start_date.slice(11));
      expect(times.filter((t) => t === '03:30:00')).to.have.length(1);
      expect(times.filter((t) => t === '02:30:00')).to.have.length(39);
    });
  }
});
