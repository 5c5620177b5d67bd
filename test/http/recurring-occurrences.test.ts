import { expect } from 'chai';
import { DateTime } from 'luxon';
import ICAL from 'ical.js';
import { api, request, ROOT } from '../support/api';
import { searchReady, settle, writeIndexed } from '../support/lists';

let counter = 0;
const unique = (title: string) => `${title} ${Date.now().toString(36)}${++counter}`;
const local = (date: DateTime) => date.toFormat('yyyy-MM-dd HH:mm:ss');
const ZONE = 'Europe/Paris';
const WIDE = 'start_date=2000-01-01&end_date=2100-01-01';

async function searched(title: string, extra = ''): Promise<any[]> {
  const res = await api.get(`/events?search=${encodeURIComponent(`"${title}"`)}&per_page=50&${WIDE}${extra}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.events;
}

describe('recurring events: one occurrence', () => {
  let paris: number;
  let lyon: number;
  before(async () => {
    await searchReady();
    const word = unique('hall');
    paris = (await writeIndexed('POST', '/venues', { venue: `Salle ${word}`, geo_lat: 48.8566, geo_lng: 2.3522 })).body
      .id;
    lyon = (await writeIndexed('POST', '/venues', { venue: `Halle ${word}`, geo_lat: 45.764, geo_lng: 4.8357 })).body
      .id;
  });

  /** A weekly series of 6 occurrences at the Paris venue, from next month. */
  async function weekly(title: string) {
    const start = DateTime.now()
      .setZone(ZONE)
      .plus({ months: 1 })
      .set({ hour: 19, minute: 0, second: 0, millisecond: 0 });
    const created = await writeIndexed('POST', '/events', {
      title,
      start_date: local(start),
      end_date: local(start.plus({ hours: 2 })),
      timezone: ZONE,
      venue: paris,
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'],
    });
    const listed = await searched(title);
    expect(listed).to.have.length(6);
    return { id: created.body.id as number, start, listed };
  }

  it('GET /events/{id}/occurrences lists the series, paged, with the list date parameters', async () => {
    const title = unique('Occurrence list jazz');
    const { id, start, listed } = await weekly(title);
    const all = await api.get(`/events/${id}/occurrences?per_page=4&${WIDE}`);
    expect(all.status, JSON.stringify(all.body)).to.equal(200);
    expect(all.body.total).to.equal(6);
    expect(all.body.total_pages).to.equal(2);
    expect(all.body.events.map((e: any) => e.occurrence.recurrence_id)).to.deep.equal(
      listed.slice(0, 4).map((e) => e.occurrence.recurrence_id),
    );
    expect(all.body.next_rest_url).to.match(new RegExp(`/events/${id}/occurrences\\?.*page=2`));
    const later = await api.get(`/events/${id}/occurrences?start_date=${start.plus({ weeks: 3 }).toISODate()}`);
    expect(later.body.events.map((e: any) => e.occurrence.index)).to.deep.equal([4, 5, 6]);
    const missing = await api.get('/events/999999999/occurrences');
    expect(missing.status).to.equal(404);
  });

  it('walks the occurrences with cursor, as the list orders them, bound to their series', async () => {
    const { id, listed } = await weekly(unique('Occurrence walk'));
    const path = `/events/${id}/occurrences?per_page=4`;
    const walked: string[] = [];
    let res = await api.get(`${path}&cursor=`);
    const first = res.body.next_cursor as string;
    for (;;) {
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.rest_url).to.contain(`/events/${id}/occurrences?`);
      walked.push(...res.body.events.map((e: { occurrence: { recurrence_id: string } }) => e.occurrence.recurrence_id));
      if (!res.body.next_cursor) break;
      res = await api.get(`${path}&cursor=${encodeURIComponent(res.body.next_cursor)}`);
    }
    expect(walked).to.deep.equal(listed.map((e) => e.occurrence.recurrence_id));
    const other = await weekly(unique('Other walk'));
    const foreign = await api.get(`/events/${other.id}/occurrences?per_page=4&cursor=${encodeURIComponent(first)}`);
    expect(foreign.status).to.equal(400);
    expect(foreign.body.data.params).to.have.property('cursor');
    expect((await api.get(`${path}&cursor=&page=2`)).status).to.equal(400);
  });

  it('reads one occurrence at its rest_url; an unknown recurrence_id is 404, a malformed one 400', async () => {
    const { id, listed } = await weekly(unique('Occurrence read'));
    const third = listed[2];
    const read = await api.get(`/events/${id}/occurrences/${third.occurrence.recurrence_id}`);
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    expect(read.body).to.deep.include({ id, start_date: third.start_date, end_date: third.end_date });
    expect(read.body.occurrence).to.deep.equal(third.occurrence);
    expect(third.occurrence.rest_url).to.match(
      new RegExp(`/events/${id}/occurrences/${third.occurrence.recurrence_id}$`),
    );
    expect((await api.get(`/events/${id}/occurrences/20990101T000000Z`)).status).to.equal(404);
    for (const malformed of ['tomorrow', '20271323T090000Z', '20270230T090000Z', '20270105T250000Z']) {
      const bad = await api.get(`/events/${id}/occurrences/${malformed}`);
      expect(bad.status, malformed).to.equal(400);
      expect(bad.body.data.params).to.have.property('recurrence_id');
    }
  });

  it('an occurrence read carries ETag and Last-Modified, answers 304 to either until it changes', async () => {
    const { id, listed } = await weekly(unique('Occurrence validators'));
    const [first, second] = listed.map((event: any) => `/events/${id}/occurrences/${event.occurrence.recurrence_id}`);
    // A series' answer is validated by the minute too (its next occurrences): asked again within it.
    const revalidated = async (path: string, headers: Record<string, string>) => {
      for (;;) {
        const minute = Math.floor(Date.now() / 60_000);
        const res = await request('GET', `${ROOT}${path}`, undefined, { headers });
        if (res.status === 304 || Math.floor(Date.now() / 60_000) === minute) return res.status;
      }
    };
    // Last-Modified is sent once its second is over (a change within it would share it).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const read = await api.get(first!);
    const etag = read.headers.get('etag')!;
    const lastModified = read.headers.get('last-modified')!;
    expect(etag).to.match(/^W\//);
    expect(new Date(lastModified).getTime()).to.be.above(0);
    expect(await revalidated(first!, { 'If-None-Match': etag })).to.equal(304);
    expect(await revalidated(first!, { 'If-Modified-Since': lastModified })).to.equal(304);
    expect((await api.get(second!)).headers.get('etag')).to.not.equal(etag);
    await writeIndexed('PATCH', first!, { title: 'Occurrence validators, changed' });
    expect(await revalidated(first!, { 'If-None-Match': etag })).to.equal(200);
  });

  it('a moved occurrence at another venue is found by a geo query at its new place, not at the old', async () => {
    const title = unique('Occurrence moved');
    const { id, listed } = await weekly(title);
    const second = listed[1];
    const moved = DateTime.fromFormat(second.start_date, 'yyyy-MM-dd HH:mm:ss', { zone: ZONE }).plus({
      days: 1,
      hours: 1,
    });
    const patched = await writeIndexed('PATCH', `/events/${id}/occurrences/${second.occurrence.recurrence_id}`, {
      start_date: local(moved),
      end_date: local(moved.plus({ hours: 3 })),
      venue: lyon,
      title: `${title} in Lyon`,
    });
    expect(patched.body.start_date).to.equal(local(moved));
    expect(patched.body.venue.id).to.equal(lyon);
    expect(patched.body.title).to.equal(`${title} in Lyon`);
    expect(patched.body.occurrence.recurrence_id).to.equal(second.occurrence.recurrence_id);

    const nearLyon = await searched(title, '&geoloc_lat=45.76&geoloc_lng=4.83&geoloc_radius=10&geoloc_unit=km');
    expect(nearLyon.map((e) => e.occurrence.recurrence_id)).to.deep.equal([second.occurrence.recurrence_id]);
    expect(nearLyon[0]).to.deep.include({ start_date: local(moved), title: `${title} in Lyon` });
    const nearParis = await searched(title, '&geoloc_lat=48.85&geoloc_lng=2.35&geoloc_radius=10&geoloc_unit=km');
    expect(nearParis).to.have.length(5);
    expect(nearParis.map((e) => e.occurrence.recurrence_id)).to.not.include(second.occurrence.recurrence_id);
    // The others are untouched, and the series read lists the moved one at its new dates.
    const series = await api.get(`/events/${id}`);
    expect(series.body.venue.id).to.equal(paris);
    expect(series.body.title).to.equal(title);
    const next = series.body.next_occurrences.find((o: any) => o.recurrence_id === second.occurrence.recurrence_id);
    expect(next.start_date).to.equal(local(moved));
    expect(series.body.json_ld).to.have.property('subEvent');
    // The series is linked to both venues: its own and the moved occurrence's.
    const linked = await api.get(`/venues?event=${id}`);
    expect(linked.body.venues.map((venue: any) => venue.id).sort()).to.deep.equal([paris, lyon].sort());
  });

  it('a change of the rule keeps the changes of occurrences that still exist; null follows the series again', async () => {
    const title = unique('Occurrence kept');
    const { id, listed } = await weekly(title);
    const rid = listed[3].occurrence.recurrence_id;
    await writeIndexed('PATCH', `/events/${id}/occurrences/${rid}`, {
      cost: '12 EUR',
      description: '<p>Guest trio</p>',
    });
    await writeIndexed('PATCH', `/events/${id}`, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'] });
    const after = await searched(title);
    expect(after).to.have.length(5);
    const fourth = after.find((e) => e.occurrence.recurrence_id === rid);
    expect(fourth).to.deep.include({ cost: '12 EUR' });
    expect(fourth.description).to.contain('Guest trio');
    expect(after.filter((e) => e.cost === '12 EUR')).to.have.length(1);
    await writeIndexed('PATCH', `/events/${id}/occurrences/${rid}`, { cost: null, description: null });
    const back = (await searched(title)).find((e) => e.occurrence.recurrence_id === rid);
    expect(back.cost).to.not.equal('12 EUR');
    expect(back.description ?? '').to.not.contain('Guest trio');
  });

  it('the change of an occurrence a new rule no longer has is unseen, and applies again when a rule brings it back', async () => {
    const title = unique('Occurrence dormant');
    const { id, listed } = await weekly(title);
    const rid = listed[5].occurrence.recurrence_id;
    const word = unique('annexe').replace(/\W/g, '');
    const annexe = (await writeIndexed('POST', '/venues', { venue: `Annexe ${word}` })).body.id as number;
    const venuesOf = async (query: string) =>
      ((await api.get(`/venues?${query}`)).body.venues as { id: number }[]).map((venue) => venue.id);
    await writeIndexed('PATCH', `/events/${id}/occurrences/${rid}`, { cost: '15 EUR', venue: annexe });
    await settle();
    expect(await venuesOf(`event=${id}`)).to.have.members([paris, annexe]);
    expect(await venuesOf(`search=${word}&has_events=true`)).to.deep.equal([annexe]);
    await writeIndexed('PATCH', `/events/${id}`, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'] });
    await settle();
    // The venue only that occurrence was moved to is no longer the series' venue, nor has events.
    expect(await venuesOf(`event=${id}`)).to.deep.equal([paris]);
    expect(await venuesOf(`search=${word}&has_events=true`)).to.deep.equal([]);
    const shortened = await searched(title);
    expect(shortened.map((e) => e.occurrence.recurrence_id)).to.not.include(rid);
    expect(shortened.filter((e) => e.cost === '15 EUR')).to.have.length(0);
    expect((await api.get(`/events/${id}/occurrences/${rid}`)).status).to.equal(404);
    // Nor does its calendar carry it: a RECURRENCE-ID outside the rule would add an event to clients.
    const ics = await request('GET', `${ROOT}/events/${id}`, undefined, { headers: { Accept: 'text/calendar' } });
    expect(ics.status).to.equal(200);
    expect(String(ics.body)).to.not.match(/RECURRENCE-ID/);
    expect(String(ics.body)).to.not.contain('15 EUR');
    await writeIndexed('PATCH', `/events/${id}`, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'] });
    const restored = await searched(title);
    expect(restored).to.have.length(6);
    expect(restored.find((e) => e.occurrence.recurrence_id === rid)).to.deep.include({ cost: '15 EUR' });
    expect(restored.filter((e) => e.cost === '15 EUR')).to.have.length(1);
    await settle();
    expect(await venuesOf(`event=${id}`)).to.have.members([paris, annexe]);
    expect(await venuesOf(`search=${word}&has_events=true`)).to.deep.equal([annexe]);
    const restoredIcs = await request('GET', `${ROOT}/events/${id}`, undefined, {
      headers: { Accept: 'text/calendar' },
    });
    expect(String(restoredIcs.body).match(/^RECURRENCE-ID/gm)).to.have.length(1);
  });
  it('DELETE cancels one occurrence: an EXDATE of the series, gone from lists and reads', async () => {
    const title = unique('Occurrence cancelled');
    const { id, listed } = await weekly(title);
    const rid = listed[4].occurrence.recurrence_id;
    const cancelled = await writeIndexed('DELETE', `/events/${id}/occurrences/${rid}`);
    expect(cancelled.body.deleted).to.equal(true);
    expect(cancelled.body.previous.occurrence.recurrence_id).to.equal(rid);
    const after = await searched(title);
    expect(after.map((e) => e.occurrence.recurrence_id)).to.deep.equal(
      listed.map((e) => e.occurrence.recurrence_id).filter((r) => r !== rid),
    );
    const series = await api.get(`/events/${id}`);
    expect(series.body.recurrence).to.deep.equal(['RRULE:FREQ=WEEKLY;COUNT=6', `EXDATE:${rid}`]);
    expect((await api.get(`/events/${id}/occurrences/${rid}`)).status).to.equal(404);
    expect((await api.delete(`/events/${id}/occurrences/${rid}`)).status).to.equal(404);
  });

  it('refuses anonymous and bad writes with a 4xx that changes nothing', async () => {
    const { id, listed } = await weekly(unique('Occurrence refused'));
    const rid = listed[0].occurrence.recurrence_id;
    const path = `/events/${id}/occurrences/${rid}`;
    expect((await api.patch(path, { title: 'x' }, {})).status).to.equal(401);
    expect((await api.delete(path, {})).status).to.equal(401);
    const badEnd = await api.patch(path, { end_date: '2000-01-01 00:00:00' });
    expect(badEnd.status).to.equal(400);
    expect(badEnd.body.data.params).to.have.property('end_date');
    const badVenue = await api.patch(path, { venue: 999999999 });
    expect(badVenue.status).to.equal(400);
    expect(badVenue.body.data.params).to.have.property('venue');
    const notSeries = await writeIndexed('POST', '/events', {
      title: 'single',
      start_date: '2030-01-01 10:00:00',
      end_date: '2030-01-01 11:00:00',
    });
    const single = await api.patch(`/events/${notSeries.body.id}/occurrences/20300101T090000Z`, { title: 'x' });
    expect(single.status).to.equal(404);
    expect(single.body.message).to.contain('not recurring');
    const read = await api.get(path);
    expect(read.body.start_date).to.equal(listed[0].start_date);
    expect(read.body.venue.id).to.equal(paris);
  });

  it('refuses to cancel an occurrence of a series at the most dates its lines may hold: a 400 naming recurrence', async () => {
    const start = DateTime.now().setZone(ZONE).plus({ months: 1 }).set({ hour: 19, minute: 0, second: 0 });
    // 1,000 EXDATEs, the most a series may have, all before its first start.
    const past = Array.from({ length: 1000 }, (_, i) =>
      start
        .minus({ days: i + 1 })
        .toUTC()
        .toFormat("yyyyMMdd'T'HHmmss'Z'"),
    );
    const recurrence = ['RRULE:FREQ=WEEKLY;COUNT=3', `EXDATE:${past.join(',')}`];
    const created = await writeIndexed('POST', '/events', {
      title: unique('Full of dates'),
      start_date: local(start),
      end_date: local(start.plus({ hours: 2 })),
      timezone: ZONE,
      recurrence,
    });
    const id = created.body.id as number;
    const rid = start.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'");
    const refused = await api.delete(`/events/${id}/occurrences/${rid}`);
    expect(refused.status, JSON.stringify(refused.body)).to.equal(400);
    expect(refused.body.code).to.equal('rest_invalid_param');
    expect(refused.body.data.params.recurrence).to.match(/at most 1000 RDATE and EXDATE dates/);
    expect((await api.get(`/events/${id}`)).body.recurrence).to.deep.equal(recurrence);
    expect((await api.get(`/events/${id}/occurrences/${rid}`)).status).to.equal(200);
  });
});

describe('recurring events: include lists a series as its next occurrence', () => {
  before(searchReady);

  async function series(title: string, firstStart: DateTime, count: number) {
    const created = await writeIndexed('POST', '/events', {
      title,
      start_date: local(firstStart),
      end_date: local(firstStart.plus({ hours: 1 })),
      timezone: ZONE,
      recurrence: [`RRULE:FREQ=WEEKLY;COUNT=${count}`],
    });
    return created.body.id as number;
  }

  it('the next occurrence when some are to come, the last when all are past', async () => {
    const now = DateTime.now().setZone(ZONE).set({ second: 0, millisecond: 0 });
    const ongoing = await series(unique('Include ongoing'), now.minus({ weeks: 3, hours: 5 }), 6);
    const over = await series(unique('Include over'), now.minus({ weeks: 10 }), 4);
    const res = await api.get(`/events?include=${ongoing},${over}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.total).to.equal(2);
    const byId = new Map(res.body.events.map((e: any) => [e.id, e]));
    // The 4th started 5 hours ago and ended 4 hours ago: the 5th is next.
    expect((byId.get(ongoing) as any).occurrence.index).to.equal(5);
    expect((byId.get(over) as any).occurrence.index).to.equal(4);
    expect((byId.get(over) as any).start_date).to.equal(local(now.minus({ weeks: 10 }).plus({ weeks: 3 })));
  });
});

describe('recurring events: venues count occurrences', () => {
  before(searchReady);

  it('a venue whose series began in the past but goes on has an upcoming event; once cancelled to the past it has none', async () => {
    const name = unique('Series hall');
    const venue = (await writeIndexed('POST', '/venues', { venue: name })).body.id as number;
    const start = DateTime.now().setZone(ZONE).minus({ weeks: 2 }).set({ second: 0, millisecond: 0 });
    const created = await writeIndexed('POST', '/events', {
      title: unique('Series at the hall'),
      start_date: local(start),
      end_date: local(start.plus({ hours: 1 })),
      timezone: ZONE,
      venue,
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
    });
    const upcoming = async () =>
      (await api.get(`/venues?search=${encodeURIComponent(`"${name}"`)}&only_with_upcoming=true`)).body.venues.map(
        (v: any) => v.id,
      );
    expect(await upcoming()).to.deep.equal([venue]);
    const occurrences = await api.get(`/events/${created.body.id}/occurrences?start_date=2000-01-01`);
    for (const future of occurrences.body.events.slice(2))
      await writeIndexed('DELETE', `/events/${created.body.id}/occurrences/${future.occurrence.recurrence_id}`);
    expect(await upcoming()).to.deep.equal([]);
  });

  it('a venue only a moved occurrence is at has that event, upcoming until the occurrence ends; moved back, none', async () => {
    const hall = unique('Moved-to hall');
    const [home, other] = await Promise.all(
      [unique('Home hall'), hall].map(
        async (venue) => (await writeIndexed('POST', '/venues', { venue })).body.id as number,
      ),
    );
    const start = DateTime.now()
      .setZone(ZONE)
      .plus({ days: 1 })
      .set({ hour: 18, minute: 0, second: 0, millisecond: 0 });
    const created = await writeIndexed('POST', '/events', {
      title: unique('Series moving once'),
      start_date: local(start),
      end_date: local(start.plus({ hours: 1 })),
      timezone: ZONE,
      venue: home,
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    const listed = async (filter: string) =>
      (await api.get(`/venues?search=${encodeURIComponent(`"${hall}"`)}&${filter}`)).body.venues.map((v: any) => v.id);
    expect(await listed('has_events=true')).to.deep.equal([]);
    const [, second] = (await api.get(`/events/${created.body.id}/occurrences`)).body.events;
    const at = (event: any) => `/events/${created.body.id}/occurrences/${event.occurrence.recurrence_id}`;
    await writeIndexed('PATCH', at(second), { venue: other });
    await settle();
    expect(await listed('has_events=true')).to.deep.equal([other]);
    expect(await listed('only_with_upcoming=true')).to.deep.equal([other]);
    // Moved to the past (before the first occurrence): still an event there, no longer an upcoming one.
    await writeIndexed('PATCH', at(second), {
      start_date: local(start.minus({ days: 30 })),
      end_date: local(start.minus({ days: 30 }).plus({ hours: 1 })),
    });
    await settle();
    expect(await listed('has_events=true')).to.deep.equal([other]);
    expect(await listed('only_with_upcoming=true')).to.deep.equal([]);
    await writeIndexed('PATCH', at(second), { venue: null, start_date: null, end_date: null });
    await settle();
    expect(await listed('has_events=true')).to.deep.equal([]);
  });
});

describe('recurring events: iCalendar', () => {
  before(searchReady);

  it('a series read or a feed listing it has one VEVENT with its rule and one per changed occurrence; ical.js expands it as the API lists it', async () => {
    const title = unique('Feed series');
    const start = DateTime.now()
      .setZone(ZONE)
      .plus({ months: 2 })
      .set({ hour: 18, minute: 30, second: 0, millisecond: 0 });
    const created = await writeIndexed('POST', '/events', {
      title,
      start_date: local(start),
      end_date: local(start.plus({ hours: 2 })),
      timezone: ZONE,
      recurrence: [
        'RRULE:FREQ=WEEKLY;COUNT=8',
        `EXDATE;TZID=${ZONE}:${start.plus({ weeks: 3 }).toFormat("yyyyMMdd'T'HHmmss")}`,
      ],
    });
    const id = created.body.id as number;
    const listed = await searched(title);
    const moved = DateTime.fromFormat(listed[1].start_date, 'yyyy-MM-dd HH:mm:ss', { zone: ZONE }).plus({ days: 2 });
    await writeIndexed('PATCH', `/events/${id}/occurrences/${listed[1].occurrence.recurrence_id}`, {
      start_date: local(moved),
      end_date: local(moved.plus({ hours: 2 })),
      title: `${title} (moved)`,
    });
    const apiStarts = (await searched(title)).map((e) => e.utc_start_date).sort();

    // The series read and a list feed matching it both carry it once: its rule and its changed occurrence.
    const read = await request('GET', `${ROOT}/events/${id}`, undefined, { headers: { Accept: 'text/calendar' } });
    const listFeed = await request('GET', `${ROOT}/events.ics?search=${encodeURIComponent(`"${title}"`)}&${WIDE}`);
    for (const res of [read, listFeed]) {
      expect(res.status).to.equal(200);
      const calendar = new ICAL.Component(ICAL.parse(String(res.body)));
      for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
      const [master, ...exceptions] = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
      expect(master!.isRecurring()).to.equal(true);
      expect(master!.uid).to.match(new RegExp(`^event-${id}@`));
      expect(exceptions).to.have.length(1);
      expect(exceptions[0]!.uid).to.equal(master!.uid);
      expect(exceptions[0]!.summary).to.equal(`${title} (moved)`);
      for (const exception of exceptions) master!.relateException(exception);
      const expanded: string[] = [];
      const iterator = master!.iterator();
      for (let next = iterator.next(); next && expanded.length < 50; next = iterator.next()) {
        const details = master!.getOccurrenceDetails(next);
        expanded.push(DateTime.fromJSDate(details.startDate.toJSDate()).toUTC().toFormat('yyyy-MM-dd HH:mm:ss'));
      }
      expect(expanded.sort()).to.deep.equal(apiStarts);
      expect(expanded).to.have.length(7);
    }
    expect(listFeed.headers.get('x-total')).to.equal('1');
  });

  it('a feed of several series and an event writes each series as its own read does', async () => {
    const title = unique('Feed pair');
    const start = DateTime.now()
      .setZone(ZONE)
      .plus({ months: 3 })
      .set({ hour: 10, minute: 0, second: 0, millisecond: 0 });
    const series: number[] = [];
    for (const [n, rule] of ['RRULE:FREQ=WEEKLY;COUNT=4', 'RRULE:FREQ=DAILY;COUNT=3'].entries()) {
      const first = start.plus({ days: n });
      const created = await writeIndexed('POST', '/events', {
        title: `${title} ${n}`,
        start_date: local(first),
        end_date: local(first.plus({ hours: 1 })),
        timezone: ZONE,
        recurrence: [rule],
      });
      series.push(created.body.id as number);
    }
    await writeIndexed('POST', '/events', {
      title: `${title} once`,
      start_date: local(start.plus({ days: 1, hours: 3 })),
      end_date: local(start.plus({ days: 1, hours: 4 })),
      timezone: ZONE,
    });
    for (const [n, id] of series.entries()) {
      const occurrences = (await api.get(`/events/${id}/occurrences?per_page=10&${WIDE}`)).body.events;
      await writeIndexed('PATCH', `/events/${id}/occurrences/${occurrences[1].occurrence.recurrence_id}`, {
        title: `${title} ${n} (changed)`,
      });
    }
    const listFeed = await request('GET', `${ROOT}/events.ics?search=${encodeURIComponent(`"${title}"`)}&${WIDE}`);
    expect(listFeed.status).to.equal(200);
    expect(listFeed.headers.get('x-total')).to.equal('3');
    // Each series' VEVENTs, its SEQUENCE aside (the list's is its index document's version).
    const veventsOf = (text: string, id: number) =>
      (String(text).match(/BEGIN:VEVENT\r\n[\s\S]*?END:VEVENT\r\n/g) ?? [])
        .filter((vevent) => vevent.includes(`\r\nUID:event-${id}@`))
        .map((vevent) => vevent.replace(/\r\nSEQUENCE:\d+/, ''));
    for (const [n, id] of series.entries()) {
      const read = await request('GET', `${ROOT}/events/${id}.ics`);
      const own = veventsOf(String(read.body), id);
      expect(own, `series ${n}`).to.have.length(2);
      expect(veventsOf(String(listFeed.body), id), `series ${n}`).to.deep.equal(own);
      const [master, changed] = own.map((vevent) => new ICAL.Event(new ICAL.Component(ICAL.parse(vevent))));
      expect(master!.isRecurring()).to.equal(true);
      expect(changed!.summary).to.equal(`${title} ${n} (changed)`);
    }
    const events = new ICAL.Component(ICAL.parse(String(listFeed.body))).getAllSubcomponents('vevent');
    expect(events.map((vevent) => vevent.getFirstPropertyValue('summary')).sort()).to.deep.equal(
      [`${title} 0`, `${title} 0 (changed)`, `${title} 1`, `${title} 1 (changed)`, `${title} once`].sort(),
    );
  });
});
