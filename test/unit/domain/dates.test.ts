import { expect } from 'chai';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import {
  canonicalTimeZone,
  details,
  checkDateInput,
  isCalendarDay,
  parseDateInput,
  toLocalIso,
  toWire,
  WIRE_FORMAT,
  utcDetails,
  wireDateIn,
  wireUtc,
} from '../../../src/domain/dates';

const NOW = DateTime.fromISO('2026-03-10T15:30:00Z');

describe('domain/dates', () => {
  it('names IANA time zones only: UTC offsets and other forms are none, whatever Intl takes', () => {
    expect(canonicalTimeZone('europe/paris')).to.equal('Europe/Paris');
    expect(canonicalTimeZone('Etc/GMT+2')).to.equal('Etc/GMT+2');
    // Intl.DateTimeFormat of Node 22 and later accepts the offsets as time zones.
    for (const zone of ['+02:00', '-0530', '+02', '+14:00', 'UTC+2', 'GMT+2', 'Z', '']) {
      expect(canonicalTimeZone(zone), zone).to.equal(null);
    }
  });

  it('formats wire dates and their details as luxon formats them, in any zone, however often asked', () => {
    const zones = [
      'UTC',
      'Europe/Paris',
      'Europe/Berlin',
      'America/St_Johns',
      'America/New_York',
      'Asia/Kathmandu',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
    ];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0100-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        fc.constantFrom(...zones),
        (instant, zone) => {
          const date = DateTime.fromJSDate(instant, { zone });
          expect(toWire(date)).to.equal(date.toFormat(WIRE_FORMAT));
          expect(toLocalIso(date)).to.equal(date.toFormat("yyyy-MM-dd'T'HH:mm:ss"));
          const [day, time] = date.toFormat(WIRE_FORMAT).split(' ') as [string, string];
          const [year, month, dayOfMonth] = day.split('-');
          const [hour, minutes, seconds] = time.split(':');
          expect(details(date)).to.deep.equal({ year, month, day: dayOfMonth, hour, minutes, seconds });
          expect(wireDateIn(instant, zone)).to.equal(toWire(date));
          expect(wireDateIn(new Date(instant.getTime()), zone), 'remembered').to.equal(toWire(date));
          const utc = date.setZone('UTC');
          expect(wireUtc(instant)).to.equal(utc.toFormat(WIRE_FORMAT));
          expect(utcDetails(instant)).to.deep.equal(details(utc));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('accepts every date form of CONTRACT part 2 and nothing else', () => {
    for (const ok of [
      '2026-01-02 03:04:05',
      '2026-01-02',
      '2026-01-02T03:04:05Z',
      '2026-01-02T03:04:05+02:00',
      '2026-01-02T03:04+14:00',
      '2026-01-02T03:04:05.5-0930',
      '2026-01-02T03:04:05+18:00',
      '2026-01-02 03:04:05+02:00',
      '2026-01-02 03:04:05Z',
      '20260102T030405Z',
      '1767225600',
      'now',
      'today',
      'Tomorrow',
      'yesterday',
      '+2 days',
      '-1 week',
      '+3 months',
      '+1 year',
    ]) {
      expect(checkDateInput(ok), ok).to.equal('ok');
    }
    for (const bad of [
      '',
      'soon',
      '2026-13-01',
      '2026-02-30',
      '12/01/2026',
      '+2 fortnights',
      '{"$gt":""}',
      '2026-01-02T03:04+99:99',
      '2026-01-02T03:04-25:00',
      '2026-01-02T03:04:05+02:75',
      '2026-01-02T03:04:05+18:01',
      '2026-01-02 03:04:05+25:00',
      '2026-01-02  03:04:05',
      '10:00:00',
      '10:00',
      'T10:00:00Z',
      '1000Z',
      '1030+01:00',
      '103000Z',
    ]) {
      expect(checkDateInput(bad), bad).to.equal('format');
    }
  });

  it('keeps dates within the years 1 to 9999, where they are and in UTC (the index cannot store others)', () => {
    for (const ok of [
      '9999-12-31',
      '9999-12-31 12:00:00',
      '0001-01-01T00:00:00Z',
      '-62135596800',
      '99999999999',
      '253402300799',
    ]) {
      expect(checkDateInput(ok), ok).to.equal('ok');
    }
    for (const far of [
      '+8000 years',
      '-2100 years',
      '-99999999999',
      '9999-12-31T23:00:00-05:00',
      '0000-01-01',
      '253402300800',
    ]) {
      expect(checkDateInput(far), far).to.equal('range');
    }
  });

  it('reads wall-clock forms in the given zone and keeps explicit offsets', () => {
    expect(parseDateInput('2026-07-01 10:00:00', 'Europe/Paris').toUTC().toISO()).to.equal('2026-07-01T08:00:00.000Z');
    expect(parseDateInput('2026-07-01T10:00:00Z', 'Europe/Paris').toUTC().toISO()).to.equal('2026-07-01T10:00:00.000Z');
    expect(parseDateInput('2026-07-01', 'UTC').toISO()).to.equal('2026-07-01T00:00:00.000Z');
    expect(parseDateInput('2026-07-01 10:00:00+02:00', 'UTC').toISO()).to.equal('2026-07-01T08:00:00.000Z');
  });

  it('reads a local time clocks repeat as its first occurrence, and one they skip moved forward by the gap', () => {
    const utc = (text: string, zone: string) => parseDateInput(text, zone).toUTC().toISO();
    expect(utc('2031-10-26 02:30:00', 'Europe/Berlin')).to.equal('2031-10-26T00:30:00.000Z');
    expect(utc('2031-10-26T02:30:00', 'Europe/Berlin')).to.equal('2031-10-26T00:30:00.000Z');
    expect(utc('2031-10-26 03:30:00', 'Europe/Berlin')).to.equal('2031-10-26T02:30:00.000Z');
    expect(utc('2031-11-02 01:30:00', 'America/New_York')).to.equal('2031-11-02T05:30:00.000Z');
    expect(utc('2031-04-06 01:45:00', 'Australia/Lord_Howe')).to.equal('2031-04-05T14:45:00.000Z');
    // The second occurrence is still reachable with its offset.
    expect(utc('2031-10-26T02:30:00+01:00', 'Europe/Berlin')).to.equal('2031-10-26T01:30:00.000Z');
    expect(toWire(parseDateInput('2031-03-30 02:30:00', 'Europe/Berlin'))).to.equal('2031-03-30 03:30:00');
  });

  it('resolves relative forms against now in the zone', () => {
    expect(toWire(parseDateInput('today', 'UTC', NOW))).to.equal('2026-03-10 00:00:00');
    expect(toWire(parseDateInput('tomorrow', 'UTC', NOW))).to.equal('2026-03-11 00:00:00');
    expect(toWire(parseDateInput('+2 days', 'UTC', NOW))).to.equal('2026-03-12 15:30:00');
    expect(toWire(parseDateInput('-1 month', 'UTC', NOW))).to.equal('2026-02-10 15:30:00');
  });

  it('tells calendar days as luxon does, without it', () => {
    const twoDigits = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), twoDigits(13), twoDigits(32), (year, month, day) => {
        const text = `${String(year).padStart(4, '0')}-${month}-${day}`;
        expect(isCalendarDay(text), text).to.equal(DateTime.fromSQL(text, { zone: 'UTC' }).isValid);
      }),
      { numRuns: 2000 },
    );
    for (const leap of ['2024-02-29', '2000-02-29', '1600-02-29']) expect(isCalendarDay(leap), leap).to.equal(true);
    for (const notLeap of ['2026-02-29', '1900-02-29', '2100-02-29'])
      expect(isCalendarDay(notLeap), notLeap).to.equal(false);
    for (const other of ['2026-01-02 10:00:00', ' 2026-01-02', '2026-1-02', 'today'])
      expect(isCalendarDay(other), other).to.equal(false);
  });

  it('formats details as strings', () => {
    expect(details(parseDateInput('2026-01-02 03:04:05', 'UTC'))).to.deep.equal({
      year: '2026',
      month: '01',
      day: '02',
      hour: '03',
      minutes: '04',
      seconds: '05',
    });
  });

  it('wireDateIn tells apart the two instants a clock change gives the same wall-clock hour', () => {
    // Either side of a clock change: the same wall-clock hour twice, an hour apart in UTC.
    expect(wireDateIn(new Date('2026-10-25T00:30:00Z'), 'Europe/Berlin')).to.equal('2026-10-25 02:30:00');
    expect(wireDateIn(new Date('2026-10-25T01:30:00Z'), 'Europe/Berlin')).to.equal('2026-10-25 02:30:00');
    expect(wireDateIn(new Date('2026-10-25T01:30:00Z'), 'UTC')).to.equal('2026-10-25 01:30:00');
  });
});
