import { expect } from 'chai';
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { calendarHead } from '../../../src/presenters/icalendar';
import { vtimezone } from '../../../src/presenters/vtimezone';

/** Zones whose rules changed lately, or are odd: half hours, negative DST, Ramadan, date-line jumps. */
const ZONES = [
  'Europe/Paris',
  'Europe/London',
  'Europe/Dublin',
  'America/New_York',
  'America/St_Johns',
  'America/Sao_Paulo',
  'America/Santiago',
  'America/Mexico_City',
  'America/Havana',
  'Asia/Tehran',
  'Asia/Gaza',
  'Africa/Casablanca',
  'Africa/Cairo',
  'Pacific/Apia',
  'Pacific/Chatham',
  'Australia/Lord_Howe',
  'Pacific/Auckland',
  'Antarctica/Troll',
  'Asia/Kolkata',
];
const STEP_DAYS = 23;

/** The offset, in minutes, ical.js (not this API) reads in a VTIMEZONE for a local wall clock. */
function icalOffset(zone: ICAL.Timezone, wall: DateTime): number {
  const time = new ICAL.Time(
    { year: wall.year, month: wall.month, day: wall.day, hour: wall.hour, minute: wall.minute, second: 0 },
    zone,
  );
  return zone.utcOffset(time) / 60;
}

describe('VTIMEZONE from the process time zone data (RFC 5545 3.6.5)', () => {
  for (const name of ZONES) {
    it(`${name}: ical.js reads the offset luxon places local noon at, every ${STEP_DAYS} days from 1971 to 2055`, () => {
      const text = vtimezone(name, new Date('2026-11-28T00:00:00Z'));
      expect(text).to.be.a('string');
      const component = new ICAL.Component(ICAL.parse(`BEGIN:VCALENDAR\r\n${text}END:VCALENDAR\r\n`));
      const zone = new ICAL.Timezone(component.getFirstSubcomponent('vtimezone')!);
      const wrong: string[] = [];
      for (
        let day = DateTime.fromObject({ year: 1971, month: 1, day: 3, hour: 12 }, { zone: name });
        day.year < 2056;
      ) {
        // Noon a day before and after on the same offset: not a local time a clock change makes ambiguous.
        const calm = [-1, 1].every((d) => day.plus({ days: d }).offset === day.offset);
        if (calm && icalOffset(zone, day) !== day.offset) wrong.push(`${day.toISO()} read as ${icalOffset(zone, day)}`);
        day = day.plus({ days: STEP_DAYS }).set({ hour: 12 });
      }
      expect(wrong, wrong.slice(0, 5).join('; ')).to.deep.equal([]);
    });
  }

  it('folds the calendar head, VTIMEZONEs included, within 75 octets a line (RFC 5545 3.1)', () => {
    const head = calendarHead('Events', new Set(ZONES));
    const long = head.split('\r\n').filter((line) => Buffer.byteLength(line) > 75);
    expect(long).to.deep.equal([]);
    expect(
      head.split('\r\n').some((line) => line.startsWith(' ')),
      'a long RRULE folded',
    ).to.equal(true);
  });

  it('writes UTC under any of its names as nothing (events in UTC), and nothing for an unknown zone', () => {
    for (const name of ['UTC', 'Etc/UTC', 'GMT', 'Nowhere/Atlantis']) expect(vtimezone(name), name).to.equal(null);
    expect(vtimezone('Etc/GMT+5')).to.contain('TZOFFSETTO:-0500');
  });

  it('writes a rule recurring yearly as one RRULE, the current one open-ended', () => {
    const paris = vtimezone('Europe/Paris')!;
    expect(paris).to.contain('DTSTART:19810329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\n');
    expect(paris).to.contain('DTSTART:19961027T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n');
    const mexico = vtimezone('America/Mexico_City')!;
    expect(mexico, 'no summer time since 2022').to.contain('BYMONTH=4;BYDAY=1SU;UNTIL=20220403T080000Z');
    expect(mexico).to.not.match(/RRULE:[^\r]*BYDAY=\w+\r\n/);
  });
});
