import { expect } from 'chai';
import { DateTime, IANAZone } from 'luxon';
import { placeWallClock } from '../../../src/domain/recurrence/expand';
import { offsetAt } from '../../../src/domain/recurrence/zoneOffsets';
import type { WallClock } from '../../../src/domain/recurrence/lines';

/** Zones with half-hour changes, two changes a year around Ramadan, a skipped day, changed rules. */
const ZONES = [
  'Europe/Paris',
  'America/New_York',
  'Australia/Lord_Howe',
  'America/Santiago',
  'Africa/Casablanca',
  'Pacific/Apia',
  'Asia/Tehran',
  'America/Sao_Paulo',
  'Pacific/Chatham',
  'UTC',
];
const YEARS = [2011, 2026];

const wallOf = (date: DateTime): WallClock => ({
  year: date.year,
  month: date.month,
  day: date.day,
  hour: date.hour,
  minute: date.minute,
  second: date.second,
});

const HOUR_MS = 3_600_000;

/**
 * Wall clocks around clock changes (skipped, repeated, just after), with their instants as
 * Python's zoneinfo (system tzdata) gives them: another implementation over other data. Not in
 * it: Europe/Amsterdam before 1970, whose history ICU no longer keeps (a link to Brussels).
 */
const PYTHON_ZONEINFO: [string, number[], string][] = [
  ['Europe/Paris', [2027, 3, 28, 2, 30, 0], '2027-03-28T01:30:00.000Z'],
  ['Europe/Paris', [2027, 10, 31, 2, 30, 0], '2027-10-31T00:30:00.000Z'],
  ['Europe/Paris', [2027, 3, 28, 3, 0, 0], '2027-03-28T01:00:00.000Z'],
  ['America/New_York', [2027, 3, 14, 2, 30, 0], '2027-03-14T07:30:00.000Z'],
  ['America/New_York', [2027, 11, 7, 1, 30, 0], '2027-11-07T05:30:00.000Z'],
  ['Australia/Lord_Howe', [2026, 10, 4, 2, 15, 0], '2026-10-03T15:45:00.000Z'],
  ['Australia/Lord_Howe', [2026, 4, 5, 1, 45, 0], '2026-04-04T14:45:00.000Z'],
  ['America/Santiago', [2026, 9, 6, 0, 30, 0], '2026-09-06T04:30:00.000Z'],
  ['America/Santiago', [2026, 4, 4, 23, 30, 0], '2026-04-05T02:30:00.000Z'],
  ['Pacific/Apia', [2011, 12, 30, 10, 0, 0], '2011-12-30T20:00:00.000Z'],
  ['Pacific/Apia', [2011, 9, 24, 4, 0, 0], '2011-09-24T14:00:00.000Z'],
  ['Pacific/Apia', [2011, 9, 24, 3, 30, 0], '2011-09-24T14:30:00.000Z'],
  ['Asia/Tehran', [2019, 3, 22, 0, 30, 0], '2019-03-21T21:00:00.000Z'],
  ['Asia/Tehran', [2019, 9, 21, 23, 30, 0], '2019-09-21T19:00:00.000Z'],
  ['Europe/Paris', [1800, 6, 1, 12, 0, 0], '1800-06-01T11:50:39.000Z'],
  ['America/New_York', [50, 6, 1, 12, 0, 0], '0050-06-01T16:56:02.000Z'],
  ['Europe/London', [2026, 3, 29, 1, 30, 0], '2026-03-29T01:30:00.000Z'],
  ['Europe/London', [2026, 10, 25, 1, 30, 0], '2026-10-25T00:30:00.000Z'],
  ['Pacific/Chatham', [2026, 9, 27, 2, 50, 0], '2026-09-26T14:05:00.000Z'],
];

/**
 * RFC 5545 3.3.5's instant of a wall clock, from luxon's offsets of instants alone (that way has
 * no ambiguity): of the instants whose wall clock it is, the first; none (a skipped time), with
 * the offset before the gap.
 */
function reference(wall: WallClock, zone: string): string {
  const local = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const iana = IANAZone.create(zone);
  const offsetOf = (at: number) => iana.offset(at);
  const offsets = new Set<number>();
  for (let hours = -48; hours <= 48; hours += 6) offsets.add(offsetOf(local + hours * HOUR_MS));
  const instants = [...offsets]
    .map((offset) => local - offset * 60_000)
    .filter((at) => offsetOf(at) === (local - at) / 60_000);
  const at = instants.length ? Math.min(...instants) : local - offsetOf(local - 24 * HOUR_MS) * 60_000;
  return new Date(at).toISOString();
}

/** The days of `year` on which luxon's offset for `zone` changes (midday to midday). */
function changeDays(zone: string, year: number): DateTime[] {
  const offsets = IANAZone.create(zone);
  const days: DateTime[] = [];
  for (let day = DateTime.utc(year, 1, 1, 12); day.year === year; day = day.plus({ days: 1 })) {
    if (offsets.offset(day.toMillis()) !== offsets.offset(day.toMillis() + 24 * HOUR_MS)) days.push(day);
  }
  return days;
}

describe('zone offsets kept per year, and wall clocks placed with them (RFC 5545 3.3.5)', () => {
  it('places every wall clock around each change: skipped ones with the offset before, repeated ones first', () => {
    let compared = 0;
    for (const zone of ZONES) {
      for (const year of YEARS) {
        for (const day of changeDays(zone, year)) {
          const from = DateTime.fromObject({ year: day.year, month: day.month, day: day.day }, { zone: 'UTC' });
          for (let wall = from.minus({ days: 1 }); wall < from.plus({ days: 2 }); wall = wall.plus({ minutes: 30 })) {
            const clock = wallOf(wall);
            const seen = `${zone} ${wall.toISO()}`;
            expect(placeWallClock(clock, zone).toISOString(), seen).to.equal(reference(clock, zone));
            compared++;
          }
        }
      }
    }
    expect(compared, 'changes found in the zones with daylight saving time').to.be.above(3000);
  });

  it("places wall clocks across the years, and gives luxon's offsets", () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (const zone of ZONES) {
      for (let n = 0; n < 100; n++) {
        const at = Date.UTC(1990, 0, 1) + Math.floor(random() * 50 * 365 * 86_400) * 1000;
        expect(offsetAt(zone, at), `${zone} ${new Date(at).toISOString()}`).to.equal(
          DateTime.fromMillis(at, { zone }).offset,
        );
        const clock = wallOf(DateTime.fromMillis(at, { zone: 'UTC' }));
        expect(placeWallClock(clock, zone).toISOString(), `${zone} ${JSON.stringify(clock)}`).to.equal(
          reference(clock, zone),
        );
      }
    }
  });

  it("places wall clocks where Python's zoneinfo does: gaps, repeated hours, half-hour and 45-minute zones, years 50 and 1800", () => {
    for (const [zone, [year, month, day, hour, minute, second], instant] of PYTHON_ZONEINFO) {
      const wall = { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second! };
      expect(placeWallClock(wall, zone).toISOString(), `${zone} ${JSON.stringify(wall)}`).to.equal(instant);
    }
  });

  it('Apia skipped 30 December 2011 (placed with the offset before, -10:00); 04:00 began its summer time in 2011', () => {
    const skipped = { year: 2011, month: 12, day: 30, hour: 10, minute: 0, second: 0 };
    expect(placeWallClock(skipped, 'Pacific/Apia').toISOString()).to.equal('2011-12-30T20:00:00.000Z');
    // 03:00 became 04:00 (-11:00 to -10:00): 04:00 is that instant (as Python's zoneinfo has it too),
    // where luxon's DateTime.fromObject placed it an hour later.
    const first = { year: 2011, month: 9, day: 24, hour: 4, minute: 0, second: 0 };
    expect(placeWallClock(first, 'Pacific/Apia').toISOString()).to.equal('2011-09-24T14:00:00.000Z');
  });
});
