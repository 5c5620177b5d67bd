import { expect } from 'chai';
import { DateTime } from 'luxon';
import { api } from '../support/api';
import { create, listIds, searchReady, settle, unique } from '../support/lists';

/** Day boundaries, time zones, whole days vs strict_dates, starts_* / ends_* (site zone: UTC). */
describe('lists: GET /events dates', () => {
  const tag = unique('datetag');
  const list = (query: string) => listIds(`/events?tags=${tag}&per_page=50&${query}`);
  const day = (offset: number) => DateTime.utc().plus({ days: offset }).toFormat('yyyy-MM-dd');
  const D = day(20);
  const next = day(21);
  const previous = day(19);
  const ids: Record<string, number> = {};

  before(async function () {
    this.timeout(120_000);
    await searchReady();
    const event = async (name: string, fields: Record<string, unknown>) => {
      ids[name] = (await create('/events', { title: name, tags: [tag], ...fields })).id;
    };
    // 23:30 in New York on D is 04:30 UTC on the next day: its page shows day D.
    await event('late new york', {
      start_date: `${D} 23:30:00`,
      end_date: `${next} 01:00:00`,
      timezone: 'America/New_York',
    });
    await event('morning utc', { start_date: `${D} 10:00:00`, end_date: `${D} 12:00:00` });
    // An all-day event in Tokyo on D starts at 15:00 UTC the day before.
    await event('all day tokyo', { start_date: D, end_date: D, all_day: true, timezone: 'Asia/Tokyo' });
    await event('three days', { start_date: `${previous} 09:00:00`, end_date: `${next} 18:00:00` });
    await event('earlier today', { start_date: `${day(0)} 00:00:00`, end_date: `${day(1)} 23:00:00` });
    await event('in three years', { start_date: `${day(3 * 365)} 12:00:00`, end_date: `${day(3 * 365)} 13:00:00` });
    await event('in 500 days', { start_date: `${day(500)} 12:00:00`, end_date: `${day(500)} 13:00:00` });
    await settle();
  });

  it('matches whole days against the day each event shows in its own time zone', async () => {
    expect(await list(`start_date=${D}&end_date=${D}`)).to.deep.equal([
      ids['all day tokyo'],
      ids['morning utc'],
      ids['late new york'],
    ]);
    expect(await list(`start_date=${next}&end_date=${next}`)).to.deep.equal([]);
    expect(await list(`start_date=${previous}&end_date=${previous}`)).to.deep.equal([ids['three days']]);
  });

  it('widens start_date to the start and end_date to the end of their days unless strict_dates', async () => {
    expect(await list(`start_date=${D} 11:00:00&end_date=${D} 09:00:00`)).to.deep.equal([
      ids['all day tokyo'],
      ids['morning utc'],
      ids['late new york'],
    ]);
    expect(await list(`start_date=${D} 11:00:00&end_date=${D} 23:59:59&strict_dates=true`)).to.deep.equal([
      ids['late new york'],
    ]);
    expect(await list(`start_date=${D} 00:00:00&end_date=${D} 10:00:00&strict_dates=1`)).to.deep.equal([
      ids['all day tokyo'],
      ids['morning utc'],
    ]);
    expect(await list(`start_date=${D} 00:00:00&end_date=${D} 09:59:59&strict_dates=1`)).to.deep.equal([
      ids['all day tokyo'],
    ]);
    // Set without a value ("when set", interface.md) is on.
    for (const flag of ['strict_dates', 'strict_dates=']) {
      expect(await list(`start_date=${D} 00:00:00&end_date=${D} 09:59:59&${flag}`), flag).to.deep.equal([
        ids['all day tokyo'],
      ]);
    }
  });

  it("widens an instant (offset, timestamp, now) to its whole day there and compares it with each event's instant", async () => {
    // D at +09:00 runs from 15:00 UTC the day before to 15:00 UTC on D: the Tokyo all-day event
    // and the morning in UTC start in it; 23:30 in New York (04:30 UTC on the next day) does not.
    expect(await list(`start_date=${D}T08:00:00%2B09:00&end_date=${D}T20:00:00%2B09:00`)).to.deep.equal([
      ids['all day tokyo'],
      ids['morning utc'],
    ]);
    // A timestamp's day is the site time zone's (UTC): from D 00:00 to the end of the next day.
    const seconds = (iso: string) => DateTime.fromISO(iso, { zone: 'UTC' }).toSeconds();
    expect(await list(`start_date=${seconds(`${D}T12:00:00`)}&end_date=${seconds(`${next}T02:00:00`)}`)).to.deep.equal([
      ids['morning utc'],
      ids['late new york'],
    ]);
  });

  it('compares instants (offset or Z) in UTC with strict_dates', async () => {
    expect(await list(`start_date=${next}T00:00:00Z&end_date=${next}T05:00:00Z&strict_dates=true`)).to.deep.equal([
      ids['late new york'],
    ]);
    expect(await list(`start_date=${D}T10:00:00%2B02:00&end_date=${D}T09:00:00Z&strict_dates=true`)).to.deep.equal([]);
    expect(await list(`start_date=${D}T09:30:00%2B00:00&end_date=${D}T10:00:00Z&strict_dates=true`)).to.deep.equal([
      ids['morning utc'],
    ]);
  });

  it('starts_* and ends_* bound the end of their day, and drop the default window when alone', async () => {
    expect(await list(`starts_after=${previous}&starts_before=${D}`)).to.deep.equal([
      ids['all day tokyo'],
      ids['morning utc'],
      ids['late new york'],
    ]);
    expect(await list(`starts_after=${D}&starts_before=${day(40)}`)).to.deep.equal([]);
    expect(await list(`ends_before=${D}&ends_after=${day(5)}`)).to.deep.equal([
      ids['all day tokyo'],
      ids['morning utc'],
    ]);
    expect(await list(`ends_after=${D}&starts_before=${day(30)}`)).to.deep.equal([
      ids['three days'],
      ids['late new york'],
    ]);
    expect(await list(`starts_after=${day(3 * 365 - 1)}`)).to.deep.equal([ids['in three years']]);
    // Strict, "before" excludes its bound as "after" does: the morning event starts at 10:00:00.
    expect(await list(`starts_after=${D} 09:00:00&starts_before=${D} 10:00:00&strict_dates=true`)).to.deep.equal([]);
    expect(await list(`starts_after=${D} 09:00:00&starts_before=${D} 10:00:01&strict_dates=true`)).to.deep.equal([
      ids['morning utc'],
    ]);
    expect(await list(`ends_after=${D} 11:59:59&ends_before=${D} 12:00:00&strict_dates=true`)).to.deep.equal([]);
  });

  it('defaults to today (whole day) through two years, and lists an event still running only if it started in the window', async () => {
    const listed = await list('');
    expect(listed).to.include(ids['earlier today']);
    expect(listed).not.to.include(ids['in three years']);
    expect(await list('strict_dates=true')).not.to.include(ids['earlier today']);
    expect(await list(`start_date=${D}`)).not.to.include(ids['three days']);
  });

  it('ends the default window at now + 2 years, whatever the start_date (CONTRACT 7)', async () => {
    const sinceLastYear = await list(`start_date=${day(-400)}`);
    expect(sinceLastYear).to.include.members([ids['earlier today'], ids['in 500 days']]);
    expect(sinceLastYear).not.to.include(ids['in three years']);
    expect(await list(`start_date=${day(2 * 365 + 100)}`)).to.deep.equal([]);
    expect(await list(`start_date=${day(2 * 365 + 100)}&end_date=${day(4 * 365)}`)).to.deep.equal([
      ids['in three years'],
    ]);
  });

  it('keeps dates within the years 1 to 9999: the last day lists, beyond is a 400 naming the parameter', async () => {
    expect((await api.get('/events?start_date=9999-12-31')).body).to.include({ total: 0 });
    const far = await api.get('/events?start_date=%2B8000%20years&ends_before=-99999999999');
    expect(far.status).to.equal(400);
    expect(far.body.data.params).to.deep.equal({
      start_date: 'start_date must be between the years 1 and 9999',
      ends_before: 'ends_before must be between the years 1 and 9999',
    });
  });

  it('accepts relative dates and rejects what is not a date, naming the parameter', async () => {
    expect(await list('start_date=tomorrow&end_date=%2B30 days')).to.include.members([
      ids['morning utc'],
      ids['three days'],
    ]);
    const bad = await api.get('/events?start_date=someday&ends_after=2025-13-45');
    expect(bad.status).to.equal(400);
    expect(Object.keys(bad.body.data.params).sort()).to.deep.equal(['ends_after', 'start_date']);
  });

  it('refuses offsets no clock has and the year 0, naming the parameter', async () => {
    const offsets = await api.get(
      `/events?start_date=${encodeURIComponent('2030-05-10T10:00+99:99')}&end_date=${encodeURIComponent('2030-05-10T10:00+02:75')}&starts_after=${encodeURIComponent('2030-05-10T10:00-25:00')}`,
    );
    expect(offsets.status).to.equal(400);
    expect(Object.keys(offsets.body.data.params).sort()).to.deep.equal(['end_date', 'start_date', 'starts_after']);
    const yearZero = await api.get('/events?start_date=0000-01-01');
    expect(yearZero.status).to.equal(400);
    expect(yearZero.body.data.params).to.deep.equal({ start_date: 'start_date must be between the years 1 and 9999' });
    const extremes = await api.get(
      `/events?start_date=${encodeURIComponent('2030-05-10T10:00+14:00')}&end_date=${encodeURIComponent('2030-05-10T10:00-12:00')}`,
    );
    expect(extremes.status, 'the widest offsets in use').to.equal(200);
  });

  it('include drops every date filter', async () => {
    expect(
      await list(`include=${ids['in three years']}&start_date=${D}&end_date=${D}&starts_after=${D}`),
    ).to.deep.equal([ids['in three years']]);
  });
});
