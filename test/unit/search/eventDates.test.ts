import { expect } from 'chai';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { eventDateClauses } from '../../../src/search/dateFilters';
import { ValidationError } from '../../../src/domain/errors';

describe('search/eventDates', () => {
  const now = DateTime.fromISO('2026-03-10T15:45:30Z');

  it('defaults to the start of today in the site time zone through the end of the day two years later, as instants', () => {
    expect(eventDateClauses({}, 'UTC', now)).to.deep.equal([
      { field: 'start_utc', op: 'gte', value: '2026-03-10T00:00:00.000Z' },
      { field: 'start_utc', op: 'lte', value: '2028-03-10T23:59:59.999Z' },
    ]);
  });

  it('takes "today" in the site time zone, and lists from its start wherever an event takes place', () => {
    // 15:45 UTC is already 00:45 on the 11th in Tokyo: an event at 20:00 in New York on the 10th
    // (01:00 UTC on the 11th) is still to come, so the bound is an instant, not a local day.
    expect(eventDateClauses({}, 'Asia/Tokyo', now)[0]).to.deep.equal({
      field: 'start_utc',
      op: 'gte',
      value: '2026-03-10T15:00:00.000Z',
    });
    expect(eventDateClauses({ start_date: 'today' }, 'Asia/Tokyo', now)[0]).to.deep.equal({
      field: 'start_local',
      op: 'gte',
      value: '2026-03-11T00:00:00',
    });
  });

  it('gives the default window of the day each instant falls on in its zone, in whatever order instants and zones come', () => {
    const zones = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'Pacific/Chatham'];
    const first = DateTime.fromISO('2026-03-01T00:00:00Z').toMillis();
    // Instants over two months across both DST changes of 2026, and instants within two minutes of
    // a local midnight, on a few days (DST changes in New York and Paris among them), so that one
    // day's window is often asked just before the next day's in the same zone.
    const nearMidnight = fc
      .tuple(fc.constantFrom(...zones), fc.constantFrom(1, 8, 9, 29, 30), fc.integer({ min: -120_000, max: 120_000 }))
      .map(
        ([zone, day, ms]) =>
          [DateTime.fromObject({ year: 2026, month: 3, day }, { zone }).toMillis() + ms, zone] as const,
      );
    const anywhere = fc.tuple(fc.integer({ min: first, max: first + 61 * 86_400_000 }), fc.constantFrom(...zones));
    fc.assert(
      fc.property(fc.array(fc.oneof(nearMidnight, anywhere), { minLength: 1, maxLength: 20 }), (asked) => {
        for (const [ms, zone] of asked) {
          const at = DateTime.fromMillis(ms);
          const there = at.setZone(zone);
          expect(eventDateClauses({}, zone, at), `${at.toISO()} in ${zone}`).to.deep.equal([
            { field: 'start_utc', op: 'gte', value: there.startOf('day').toUTC().toISO() },
            { field: 'start_utc', op: 'lte', value: there.plus({ years: 2 }).endOf('day').toUTC().toISO() },
          ]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('with strict_dates and no start_date starts at this instant, in UTC', () => {
    expect(eventDateClauses({ strict_dates: true }, 'Europe/Paris', now)).to.deep.equal([
      { field: 'start_utc', op: 'gte', value: '2026-03-10T15:45:30.000Z' },
      { field: 'start_utc', op: 'lte', value: '2028-03-10T15:45:30.000Z' },
    ]);
  });

  it('widens to whole days unless strict, and keeps zone-less times as wall-clock times when strict', () => {
    const input = { start_date: '2026-04-01 12:00:00', end_date: '2026-04-02 08:00:00' };
    expect(eventDateClauses(input, 'UTC', now)).to.deep.equal([
      { field: 'start_local', op: 'gte', value: '2026-04-01T00:00:00' },
      { field: 'start_local', op: 'lte', value: '2026-04-02T23:59:59' },
    ]);
    expect(eventDateClauses({ ...input, strict_dates: true }, 'UTC', now)).to.deep.equal([
      { field: 'start_local', op: 'gte', value: '2026-04-01T12:00:00' },
      { field: 'start_local', op: 'lte', value: '2026-04-02T08:00:00' },
    ]);
  });

  it('compares instants with an offset in UTC when strict', () => {
    expect(
      eventDateClauses({ start_date: '2026-04-01T12:00:00+02:00', strict_dates: true }, 'UTC', now)[0],
    ).to.deep.equal({
      field: 'start_utc',
      op: 'gte',
      value: '2026-04-01T10:00:00.000Z',
    });
  });

  it('widens a time with an offset to its whole day in the offset written, compared as instants', () => {
    const input = { start_date: '2031-03-10T08:00:00+09:00', end_date: '2031-03-10 20:00:00+09:00' };
    expect(eventDateClauses(input, 'UTC', now)).to.deep.equal([
      { field: 'start_utc', op: 'gte', value: '2031-03-09T15:00:00.000Z' },
      { field: 'start_utc', op: 'lte', value: '2031-03-10T14:59:59.999Z' },
    ]);
    const lateWest = { start_date: '2031-03-10T23:30:00-05:00', end_date: '2031-03-10T23:30:00Z' };
    expect(eventDateClauses(lateWest, 'Europe/Paris', now).map((c) => c.value)).to.deep.equal([
      '2031-03-10T05:00:00.000Z',
      '2031-03-10T23:59:59.999Z',
    ]);
    // A timestamp has no written offset: its day is the site time zone's (1773360000 is 2026-03-13T00:00Z).
    expect(eventDateClauses({ start_date: '1773360000' }, 'America/New_York', now)[0]!.value).to.equal(
      '2026-03-12T04:00:00.000Z',
    );
  });

  it('reads every form without an offset as a wall-clock time, even in an hour the site time zone skips', () => {
    const strict = (start_date: string) =>
      eventDateClauses({ start_date, strict_dates: true }, 'America/New_York', now)[0];
    // New York skips 02:00-03:00 on 2031-03-09; an event there in Paris or UTC still starts at 02:45.
    expect(strict('2031-03-09 02:29:00')).to.deep.equal({
      field: 'start_local',
      op: 'gte',
      value: '2031-03-09T02:29:00',
    });
    for (const form of ['2031-03-10T10', '2031-03-10T10:00', '2031-W11-1T10:00', '2031-069T10:00'])
      expect(strict(form), form).to.deep.equal({ field: 'start_local', op: 'gte', value: '2031-03-10T10:00:00' });
  });

  it('defaults end_date to now + 2 years whatever the start_date (CONTRACT 7), and keeps bounds within the years 1-9999', () => {
    const endFor = (start_date: string) => eventDateClauses({ start_date }, 'UTC', now)[1]?.value;
    expect(endFor('2025-01-01'), 'a start in the past').to.equal('2028-03-10T23:59:59.999Z');
    expect(endFor('2030-01-15'), 'a start past now + 2 years: an empty window').to.equal('2028-03-10T23:59:59.999Z');
    const edges = { start_date: '0001-01-01T10:00:00+09:00', end_date: '9999-12-31T10:00:00-08:00' };
    expect(eventDateClauses(edges, 'UTC', now).map((c) => c.value)).to.deep.equal([
      '0001-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ]);
  });

  it('bounds starts_* and ends_* at the end of their day and drops the default window', () => {
    expect(eventDateClauses({ starts_after: '2026-05-01', ends_before: '2026-05-31' }, 'UTC', now)).to.deep.equal([
      { field: 'start_local', op: 'gt', value: '2026-05-01T23:59:59' },
      { field: 'end_local', op: 'lte', value: '2026-05-31T23:59:59' },
    ]);
    expect(eventDateClauses({ start_date: '2026-05-01', starts_before: '2026-05-03' }, 'UTC', now)).to.have.length(3);
  });

  it('excludes the bound of starts_before and ends_before when strict, as starts_after and ends_after always do', () => {
    const input = { starts_before: '2026-05-01 10:00:00', ends_after: '2026-05-01 09:00:00', strict_dates: true };
    expect(eventDateClauses(input, 'UTC', now)).to.deep.equal([
      { field: 'start_local', op: 'lt', value: '2026-05-01T10:00:00' },
      { field: 'end_local', op: 'gt', value: '2026-05-01T09:00:00' },
    ]);
  });

  it('bounds a calendar day as the same day at midnight, in any zone, strict or not', () => {
    const zones = ['UTC', 'Europe/Paris', 'America/St_Johns', 'Asia/Kathmandu', 'Pacific/Chatham'];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 800 }),
        fc.constantFrom(...zones),
        fc.boolean(),
        (first, days, zone, strict) => {
          const day = (date: Date) => date.toISOString().slice(0, 10);
          const start = day(first);
          const later = day(new Date(first.getTime() + days * 86_400_000));
          // Where a zone skipped midnight (St John's in 1936, Kathmandu's 15 minutes in 1986, the
          // seconds of a local mean time ending), luxon moves 00:00 to the gap's end.
          const midnightExists = (date: string) =>
            DateTime.fromISO(`${date}T00:00:00`, { zone }).toFormat('HH:mm:ss') === '00:00:00';
          fc.pre(midnightExists(start) && midnightExists(later));
          const asDays = { start_date: start, end_date: later, starts_after: later, strict_dates: strict };
          const asTimes = {
            start_date: `${start} 00:00:00`,
            end_date: `${later} 00:00:00`,
            starts_after: `${later} 00:00:00`,
            strict_dates: strict,
          };
          expect(eventDateClauses(asDays, zone, now)).to.deep.equal(eventDateClauses(asTimes, zone, now));
          expect(eventDateClauses({ start_date: start }, zone, now)).to.deep.equal(
            eventDateClauses({ start_date: `${start} 00:00:00` }, zone, now),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('names the parameter that is not a date', () => {
    expect(() => eventDateClauses({ ends_after: 'soon' }, 'UTC', now))
      .to.throw(ValidationError)
      .with.property('params')
      .that.has.key('ends_after');
  });
});
