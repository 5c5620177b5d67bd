import { expect } from 'chai';
import { DateTime } from 'luxon';
import { api } from '../support/api';
import { expectInvalid } from '../support/errors';

let counter = 0;
const unique = (title: string) => `${title} ${Date.now().toString(36)}${++counter}`;
/** A Tuesday 10:00 in Paris, next year, so that its occurrences are upcoming. */
const firstTuesday = DateTime.now()
  .setZone('Europe/Paris')
  .plus({ years: 1 })
  .startOf('year')
  .set({ weekday: 2, hour: 10 });
const local = (date: DateTime) => date.toFormat('yyyy-MM-dd HH:mm:ss');

async function createSeries(recurrence: unknown, fields: Record<string, unknown> = {}) {
  return api.post('/events', {
    title: unique('Weekly class'),
    start_date: local(firstTuesday),
    end_date: local(firstTuesday.plus({ hours: 1 })),
    timezone: 'Europe/Paris',
    recurrence,
    ...fields,
  });
}

describe('recurring events: writing and reading a series', () => {
  it('stores the lines, reads them back with the next occurrences and a schema.org Schedule', async () => {
    const created = await createSeries(['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=12']);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const read = await api.get(`/events/${created.body.id}`);
    expect(read.body.recurrence).to.deep.equal(['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=12']);
    expect(read.body.next_occurrences).to.have.length(10);
    const second = read.body.next_occurrences[1];
    expect(second.start_date).to.equal(local(firstTuesday.plus({ weeks: 1 })));
    expect(second.recurrence_id).to.equal(firstTuesday.plus({ weeks: 1 }).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'"));
    expect(read.body.json_ld.eventSchedule).to.deep.include({
      '@type': 'Schedule',
      repeatFrequency: 'P1W',
      byDay: ['https://schema.org/Tuesday'],
      repeatCount: 12,
      startTime: '10:00:00',
      scheduleTimezone: 'Europe/Paris',
    });
  });

  it('takes a single string as one line; rules a Schedule cannot say get subEvents', async () => {
    const created = await createSeries('RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3', {
      start_date: local(firstTuesday.endOf('month').set({ weekday: 5, hour: 19 })),
      end_date: local(firstTuesday.endOf('month').set({ weekday: 5, hour: 21 })),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.recurrence).to.deep.equal(['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3']);
    expect(created.body.json_ld.subEvent).to.have.length(created.body.next_occurrences.length);
    // Dated as the series is: its local time with its offset (a last Friday of winter: +01:00).
    const [first] = created.body.next_occurrences;
    expect(created.body.json_ld.subEvent[0].startDate).to.equal(
      DateTime.fromFormat(first.start_date, 'yyyy-MM-dd HH:mm:ss', { zone: 'Europe/Paris' }).toISO({
        suppressMilliseconds: true,
      }),
    );
    expect(created.body.json_ld.startDate).to.match(/\+01:00$/);
    const allDay = await createSeries('RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3', {
      start_date: firstTuesday.endOf('month').set({ weekday: 5 }).toFormat('yyyy-MM-dd'),
      end_date: firstTuesday.endOf('month').set({ weekday: 5 }).toFormat('yyyy-MM-dd'),
      all_day: true,
    });
    expect(allDay.status, JSON.stringify(allDay.body)).to.equal(201);
    expect(allDay.body.json_ld.startDate).to.match(/^\d{4}-\d{2}-\d{2}$/);
    expect(allDay.body.json_ld.subEvent.map((e: { startDate: string }) => e.startDate)).to.deep.equal(
      allDay.body.next_occurrences.map((o: { start_date: string }) => o.start_date.slice(0, 10)),
    );
  });

  it('null or [] makes the series a single event again', async () => {
    const created = await createSeries(['RRULE:FREQ=DAILY;COUNT=3']);
    for (const cleared of [null, []]) {
      const updated = await api.patch(`/events/${created.body.id}`, { recurrence: cleared });
      expect(updated.status).to.equal(200);
      expect(updated.body).not.to.have.property('recurrence');
      expect(updated.body).not.to.have.property('next_occurrences');
    }
  });

  const refusals: [string, unknown, RegExp][] = [
    ['FREQ=SECONDLY', ['RRULE:FREQ=SECONDLY'], /SECONDLY/],
    ['FREQ=MINUTELY', 'RRULE:FREQ=MINUTELY;COUNT=3', /MINUTELY/],
    ['an unknown part', ['RRULE:FREQ=WEEKLY;FOO=BAR'], /unknown part/],
    ['an hourly rule without an end', ['RRULE:FREQ=HOURLY'], /RECURRENCE_MAX_OCCURRENCES \(1000\)/],
    ['COUNT=100000000 hourly', ['RRULE:FREQ=HOURLY;COUNT=100000000'], /RECURRENCE_MAX_OCCURRENCES/],
    ['a rule that never matches', ['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30'], /never matches/],
    ['an EXDATE in another format', ['RRULE:FREQ=WEEKLY', 'EXDATE:2027-01-12T10:00'], /EXDATE/],
    ['an RDATE in another format', ['RRULE:FREQ=WEEKLY', 'RDATE;VALUE=PERIOD:20270112T100000/PT1H'], /RDATE/],
    ['an object', [{ rule: 'weekly' }], /recurrence/],
    ['an UNTIL that is no date', ['RRULE:FREQ=DAILY;UNTIL=20261235'], /UNTIL=20261235 is not a valid date/],
  ];
  for (const [what, recurrence, message] of refusals) {
    it(`refuses ${what}: 400 naming recurrence, nothing created`, async () => {
      const title = unique('Refused');
      const res = await createSeries(recurrence, { title });
      expectInvalid(res, 'recurrence');
      expect(res.body.data.params.recurrence).to.match(message);
      const found = await api.get(`/events?search=${encodeURIComponent(title)}&status=any`);
      expect(found.body.events ?? []).to.have.length(0);
    });
  }

  it('refuses occurrences that would end after the year 9999, on create and when the end moves', async () => {
    const endless = await createSeries(['RRULE:FREQ=WEEKLY;COUNT=3'], { end_date: '9999-12-31 12:00:00' });
    expectInvalid(endless, 'recurrence');
    expect(endless.body.data.params.recurrence).to.match(/end after the year 9999/);
    const created = await createSeries(['RRULE:FREQ=WEEKLY;COUNT=3']);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expectInvalid(await api.patch(`/events/${created.body.id}`, { end_date: '9999-12-31 12:00:00' }), 'recurrence');
  });

  it('checks the rule again when the dates of a series change', async () => {
    const created = await createSeries(['RRULE:FREQ=DAILY;UNTIL=20991231T000000Z']);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    // The limit counts occurrences from now: an earlier start keeps a daily rule valid.
    const moved = await api.patch(`/events/${created.body.id}`, { start_date: local(firstTuesday.minus({ days: 1 })) });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const hourly = await api.patch(`/events/${created.body.id}`, {
      recurrence: ['RRULE:FREQ=HOURLY;UNTIL=20991231T000000Z'],
    });
    expectInvalid(hourly, 'recurrence');
    const kept = await api.get(`/events/${created.body.id}`);
    expect(kept.body.recurrence).to.deep.equal(['RRULE:FREQ=DAILY;UNTIL=20991231T000000Z']);
  });
});
