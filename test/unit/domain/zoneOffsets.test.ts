import { expect } from 'chai';
import { DateTime } from 'luxon';
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
const YEARS = [2011, 2019, 2026, 2027];

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
 * RFC 5545 3.3.5's instant of a wall clock, from luxon's offsets of instants alone (that way has
 * no ambiguity): of the instants whose wall clock it is, the first; none (a skipped time), with
 * the offset before the gap.
 */
function reference(wall: WallClock, zone: string): string {
  const local = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const offsetOf = (at: number) => DateTime.fromMillis(at, { zone }).offset;
  const offsets = new Set<number>();
  for (let hours = -48; hours <= 48; hours++) offsets.add(offsetOf(local + hours * HOUR_MS));
  const instants = [...offsets]
    .map((offset) => local - offset * 60_000)
    .filter((at) => offsetOf(at) === (local - at) / 60_000);
  const at = instants.length ? Math.min(...instants) : local - offsetOf(local - 24 * HOUR_MS) * 60_000;
  return new Date(at).toISOString();
}

/** The days of `year` on which luxon's offset for `zone` changes (midday to midday). */
function changeDays(zone: string, year: number): DateTime[] {
  const days: DateTime[] = [];
  for (let day = DateTime.utc(year, 1, 1, 12); day.year === year; day = day.plus({ days: 1 })) {
    if (day.setZone(zone).offset !== day.plus({ days: 1 }).setZone(zone).offset) days.push(day);
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
      for (let n = 0; n < 300; n++) {
        const at = Date.UTC(1975, 0, 1) + Math.floor(random() * 85 * 365 * 86_400) * 1000;
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

  it('Apia skipped 30 December 2011 (placed with the offset before, -10:00); 04:00 began its summer time in 2011', () => {
    const skipped = { year: 2011, month: 12, day: 30, hour: 10, minute: 0, second: 0 };
    expect(placeWallClock(skipped, 'Pacific/Apia').toISOString()).to.equal('2011-12-30T20:00:00.000Z');
    // 03:00 became 04:00 (-11:00 to -10:00): 04:00 is that instant (as Python's zoneinfo has it too),
    // where luxon's DateTime.fromObject placed it an hour later.
    const first = { year: 2011, month: 9, day: 24, hour: 4, minute: 0, second: 0 };
    expect(placeWallClock(first, 'Pacific/Apia').toISOString()).to.equal('2011-09-24T14:00:00.000Z');
  });
});
