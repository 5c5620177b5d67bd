import { expect } from 'chai';
import { validationParams } from '../../support/errors';
import { DateTime } from 'luxon';
import { presentEventDates, resolveEventDates, timezoneAbbreviation } from '../../../src/domain/eventDates';

const NOW = DateTime.fromISO('2025-03-10T09:30:15.123Z', { zone: 'UTC' });
const iso = (d: Date) => d.toISOString();

describe('domain/eventDates', () => {
  describe('resolveEventDates on create', () => {
    it('reads wire-form dates in the default zone', () => {
      const dates = resolveEventDates(
        { start_date: '2025-06-01 10:00:00', end_date: '2025-06-01 12:30:00' },
        null,
        'UTC',
        NOW,
      );
      expect(dates).to.deep.equal({
        start: new Date('2025-06-01T10:00:00Z'),
        end: new Date('2025-06-01T12:30:00Z'),
        timezone: 'UTC',
        all_day: false,
      });
    });

    it('reads dates in the event zone, offsets in the text winning', () => {
      const paris = resolveEventDates(
        { start_date: '2025-07-14 20:00:00', end_date: '2025-07-14T23:00:00Z', timezone: 'Europe/Paris' },
        null,
        'UTC',
        NOW,
      );
      expect(iso(paris.start)).to.equal('2025-07-14T18:00:00.000Z');
      expect(iso(paris.end)).to.equal('2025-07-14T23:00:00.000Z');
      expect(paris.timezone).to.equal('Europe/Paris');
    });

    it('accepts day-only, unix seconds and relative forms, dropping milliseconds', () => {
      const day = resolveEventDates({ start_date: '2025-06-01', end_date: '1748822400' }, null, 'UTC', NOW);
      expect(iso(day.start)).to.equal('2025-06-01T00:00:00.000Z');
      expect(iso(day.end)).to.equal('2025-06-02T00:00:00.000Z');
      const relative = resolveEventDates({ start_date: 'now', end_date: '+2 days' }, null, 'UTC', NOW);
      expect(iso(relative.start)).to.equal('2025-03-10T09:30:15.000Z');
      expect(iso(relative.end)).to.equal('2025-03-12T09:30:15.000Z');
      const tomorrow = resolveEventDates({ start_date: 'tomorrow', end_date: 'tomorrow' }, null, 'Europe/Paris', NOW);
      expect(iso(tomorrow.start)).to.equal('2025-03-10T23:00:00.000Z');
    });

    it('snaps all-day events to the whole local days', () => {
      const dates = resolveEventDates(
        { start_date: '2025-07-14 15:00:00', end_date: '2025-07-15 09:00', timezone: 'Europe/Paris', all_day: true },
        null,
        'UTC',
        NOW,
      );
      expect(presentEventDates(dates).start_date).to.equal('2025-07-14 00:00:00');
      expect(presentEventDates(dates).end_date).to.equal('2025-07-15 23:59:59');
      expect(iso(dates.start)).to.equal('2025-07-13T22:00:00.000Z');
      expect(dates.all_day).to.equal(true);
    });

    it('rejects an end before the start, naming end_date', () => {
      expect(
        validationParams(() =>
          resolveEventDates({ start_date: '2025-06-02', end_date: '2025-06-01' }, null, 'UTC', NOW),
        ),
      ).to.have.keys('end_date');
    });

    it('keeps dates within the years 1 to 9999, in the event zone and in UTC, naming the field', () => {
      expect(
        validationParams(() =>
          resolveEventDates({ start_date: '2025-06-02', end_date: '+8000 years' }, null, 'UTC', NOW),
        ),
      ).to.deep.equal({ end_date: 'end_date must be between the years 1 and 9999' });
      // Parses within range, but the all-day end (23:59:59 in Los Angeles) is in the year 10000 in UTC.
      const lastDay = { start_date: '9999-12-31', end_date: '9999-12-31', all_day: true };
      expect(validationParams(() => resolveEventDates(lastDay, null, 'America/Los_Angeles', NOW))).to.have.keys(
        'end_date',
      );
      expect(resolveEventDates(lastDay, null, 'Europe/Paris', NOW).end.toISOString()).to.equal(
        '9999-12-31T22:59:59.000Z',
      );
    });

    it('rejects an unknown time zone, naming timezone', () => {
      expect(
        validationParams(() =>
          resolveEventDates(
            { start_date: '2025-06-02', end_date: '2025-06-03', timezone: 'Mars/Olympus' },
            null,
            'UTC',
            NOW,
          ),
        ),
      ).to.have.keys('timezone');
    });

    it('requires both dates on create', () => {
      expect(validationParams(() => resolveEventDates({ start_date: '2025-06-02' }, null, 'UTC', NOW))).to.have.keys(
        'end_date',
      );
    });
  });

  describe('resolveEventDates on update', () => {
    const stored = {
      start: new Date('2025-07-14T18:00:00Z'),
      end: new Date('2025-07-14T21:00:00Z'),
      timezone: 'Europe/Paris',
      all_day: false,
    };

    it('keeps the stored values of fields not sent', () => {
      const dates = resolveEventDates({ end_date: '2025-07-14 23:30:00' }, stored, 'UTC', NOW);
      expect(dates.start).to.deep.equal(stored.start);
      expect(iso(dates.end)).to.equal('2025-07-14T21:30:00.000Z');
      expect(dates.timezone).to.equal('Europe/Paris');
    });

    it('keeps local wall-clock times when only the zone changes', () => {
      const dates = resolveEventDates({ timezone: 'America/New_York' }, stored, 'UTC', NOW);
      const shown = presentEventDates(dates);
      expect(shown.start_date).to.equal('2025-07-14 20:00:00');
      expect(shown.utc_start_date).to.equal('2025-07-15 00:00:00');
      expect(shown.timezone_abbr).to.equal('EDT');
    });

    it('keeps a local time in the hour clocks repeat as its first occurrence when only the zone changes', () => {
      const utcEvent = resolveEventDates(
        { start_date: '2030-10-27 02:30:00', end_date: '2030-10-27 02:45:00' },
        null,
        'UTC',
        NOW,
      );
      const moved = resolveEventDates({ timezone: 'Europe/Paris' }, utcEvent, 'UTC', NOW);
      const created = resolveEventDates(
        { start_date: '2030-10-27 02:30:00', end_date: '2030-10-27 02:45:00', timezone: 'Europe/Paris' },
        null,
        'UTC',
        NOW,
      );
      expect([iso(moved.start), iso(moved.end)]).to.deep.equal([
        '2030-10-27T00:30:00.000Z',
        '2030-10-27T00:45:00.000Z',
      ]);
      expect([moved.start, moved.end]).to.deep.equal([created.start, created.end]);
      expect(presentEventDates(moved).timezone_abbr).to.equal('CEST');
    });

    it('keeps the instants of dates not sent while the zone stays, in the hour clocks repeat too', () => {
      // 02:30 CET, the second 02:30 of that night in Paris, until 03:30 CET.
      const second = { ...stored, start: new Date('2025-10-26T01:30:00Z'), end: new Date('2025-10-26T02:30:00Z') };
      for (const input of [{ all_day: false }, { timezone: 'Europe/Paris' }, {}]) {
        const dates = resolveEventDates(input, second, 'UTC', NOW);
        expect([dates.start, dates.end], JSON.stringify(input)).to.deep.equal([second.start, second.end]);
      }
      // An all-day event whose day ends in a repeated hour keeps its end (the second 23:59:59).
      const santiago = resolveEventDates(
        { start_date: '2026-04-04', end_date: '2026-04-04', all_day: true, timezone: 'America/Santiago' },
        null,
        'UTC',
        NOW,
      );
      expect(iso(santiago.end)).to.equal('2026-04-05T03:59:59.000Z');
      expect(iso(resolveEventDates({ all_day: false }, santiago, 'UTC', NOW).end)).to.equal('2026-04-05T03:59:59.000Z');
    });

    it('keeps all_day unless sent, and snaps stored dates when it is turned on', () => {
      const kept = resolveEventDates({}, { ...stored, all_day: true }, 'UTC', NOW);
      expect(kept.all_day).to.equal(true);
      const snapped = presentEventDates(resolveEventDates({ all_day: true }, stored, 'UTC', NOW));
      expect([snapped.start_date, snapped.end_date]).to.deep.equal(['2025-07-14 00:00:00', '2025-07-14 23:59:59']);
    });

    it('checks the combined dates', () => {
      expect(
        validationParams(() => resolveEventDates({ start_date: '2025-07-15 10:00:00' }, stored, 'UTC', NOW)),
      ).to.have.keys('end_date');
    });

    it('goes back to the default zone when timezone is cleared', () => {
      expect(resolveEventDates({ timezone: '' }, stored, 'Europe/Berlin', NOW).timezone).to.equal('Europe/Berlin');
    });
  });

  describe('presentEventDates', () => {
    const at = (zone: string, iso: string) => timezoneAbbreviation(DateTime.fromISO(iso, { zone }));

    it('gives local, UTC, details and the zone abbreviation', () => {
      const shown = presentEventDates({
        start: new Date('2025-01-10T19:00:00Z'),
        end: new Date('2025-01-10T21:05:09Z'),
        timezone: 'Europe/Paris',
        all_day: false,
      });
      expect(shown).to.deep.equal({
        all_day: false,
        start_date: '2025-01-10 20:00:00',
        start_date_details: { year: '2025', month: '01', day: '10', hour: '20', minutes: '00', seconds: '00' },
        end_date: '2025-01-10 22:05:09',
        end_date_details: { year: '2025', month: '01', day: '10', hour: '22', minutes: '05', seconds: '09' },
        utc_start_date: '2025-01-10 19:00:00',
        utc_start_date_details: { year: '2025', month: '01', day: '10', hour: '19', minutes: '00', seconds: '00' },
        utc_end_date: '2025-01-10 21:05:09',
        utc_end_date_details: { year: '2025', month: '01', day: '10', hour: '21', minutes: '05', seconds: '09' },
        timezone: 'Europe/Paris',
        timezone_abbr: 'CET',
      });
    });

    const SUMMER = '2025-07-01T12:00:00Z';
    const WINTER = '2025-01-01T12:00:00Z';
    const expectAbbreviations = (cases: [zone: string, at: string, abbreviation: string][]) =>
      expect(cases.map(([zone, iso]) => at(zone, iso))).to.deep.equal(cases.map(([, , abbreviation]) => abbreviation));

    it('names zones with familiar abbreviations, else a numeric offset', () => {
      expectAbbreviations([
        ['Europe/Paris', SUMMER, 'CEST'],
        ['UTC', SUMMER, 'UTC'],
        ['America/Los_Angeles', WINTER, 'PST'],
        ['Asia/Tokyo', WINTER, 'JST'],
        ['America/Sao_Paulo', WINTER, '-03'],
        ['Asia/Kathmandu', WINTER, '+0545'],
      ]);
    });

    it("uses the tz database's names, as PHP prints them: MSK, IDT, PKT, SST; an offset where it has none", () => {
      expectAbbreviations([
        ['Europe/Moscow', WINTER, 'MSK'],
        ['Asia/Jerusalem', SUMMER, 'IDT'],
        ['Asia/Jerusalem', WINTER, 'IST'],
        ['Asia/Karachi', WINTER, 'PKT'],
        ['Pacific/Pago_Pago', WINTER, 'SST'],
        ['America/Havana', SUMMER, 'CDT'],
        ['Asia/Singapore', WINTER, '+08'],
        ['Asia/Dubai', WINTER, '+04'],
        ['Australia/Lord_Howe', WINTER, '+11'],
      ]);
    });

    it("follows the tz database's names through a zone's history (checked against Python's zoneinfo)", () => {
      expectAbbreviations([
        ['Europe/Moscow', '1985-07-01T12:00:00Z', 'MSD'],
        ['America/Caracas', '2010-01-01T12:00:00Z', '-0430'],
        ['America/Indiana/Knox', '2000-01-01T12:00:00Z', 'EST'],
        ['Asia/Shanghai', '2023-07-01T12:00:00Z', 'CST'],
        ['America/Adak', '1990-01-01T12:00:00Z', 'HST'],
        ['America/Adak', '1990-07-01T12:00:00Z', 'HDT'],
        ['Asia/Colombo', '2010-01-01T12:00:00Z', '+0530'],
        ['Africa/Casablanca', '2010-01-01T12:00:00Z', '+00'],
        ['Asia/Jerusalem', '2010-07-01T12:00:00Z', 'IDT'],
        ['Asia/Dubai', '2023-01-01T12:00:00Z', '+04'],
        ['Europe/Paris', '1943-01-01T12:00:00Z', 'CET'],
        ['America/New_York', '1943-01-01T12:00:00Z', 'EWT'],
      ]);
    });

    it('names local mean time LMT, as the tz database does, and an offset the table lacks by its digits', () => {
      expectAbbreviations([
        ['America/New_York', '1800-06-01T12:00:00Z', 'LMT'],
        ['Europe/Paris', '1900-06-01T12:00:00Z', 'PMT'],
        ['UTC+05:30', '2025-06-01T12:00:00Z', '+0530'],
      ]);
    });

    it("prefers the names used in the zone's own countries", () => {
      expectAbbreviations([
        ['Europe/Dublin', SUMMER, 'IST'],
        ['Europe/Dublin', WINTER, 'GMT'],
        ['Europe/London', SUMMER, 'BST'],
        ['Asia/Jakarta', SUMMER, 'WIB'],
        ['America/St_Johns', SUMMER, 'NDT'],
        ['Asia/Kolkata', SUMMER, 'IST'],
      ]);
    });
  });
});
