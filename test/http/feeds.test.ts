import { expect } from 'chai';
import ICAL from 'ical.js';
import { api, request, ROOT } from '../support/api';
import { testWorld } from '../support/harness';
import { create, daysFromNow, searchReady, settle, unique } from '../support/lists';

interface ParsedEvent {
  uid: string;
  summary: string;
  description: string | null;
  start: ICAL.Time;
  end: ICAL.Time;
  tzid: string | null;
  sequence: number;
  location: string | null;
  geo: number[] | null;
  categories: string[];
  organizer: string | null;
  url: string | null;
  status: string | null;
  startUnix: number;
}

/** Parses a feed with ical.js (an implementation of RFC 5545 this project did not write). */
function parseFeed(text: string): { events: ParsedEvent[]; zones: string[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const zones = calendar.getAllSubcomponents('vtimezone').map((zone) => String(zone.getFirstPropertyValue('tzid')));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    const start = vevent.getFirstProperty('dtstart')!;
    return {
      uid: event.uid,
      summary: event.summary,
      description: (vevent.getFirstPropertyValue('description') as string | null) ?? null,
      start: event.startDate,
      end: event.endDate,
      tzid: (start.getParameter('tzid') as string | undefined) ?? null,
      sequence: event.sequence,
      location: (vevent.getFirstPropertyValue('location') as string | null) ?? null,
      geo: (vevent.getFirstPropertyValue('geo') as number[] | null) ?? null,
      categories: vevent.getAllProperties('categories').flatMap((p) => p.getValues().map(String)),
      organizer: (vevent.getFirstPropertyValue('organizer') as string | null) ?? null,
      url: (vevent.getFirstPropertyValue('url') as string | null) ?? null,
      status: (vevent.getFirstPropertyValue('status') as string | null) ?? null,
      startUnix: event.startDate.toUnixTime(),
    };
  });
  return { events, zones };
}

/** RFC 5545 3.1: CRLF line ends, content lines of at most 75 octets (continuations start with a space). */
function expectWellFormed(text: string): void {
  expect(text.endsWith('END:VCALENDAR\r\n')).to.equal(true);
  expect(text.replace(/\r\n/g, '')).to.not.match(/[\r\n]/);
  for (const line of text.split('\r\n').slice(0, -1)) expect(Buffer.byteLength(line), line).to.be.at.most(75);
}

const feed = (path: string, headers: Record<string, string> = {}) =>
  request('GET', `${ROOT}${path}`, undefined, { headers });

describe('calendar feeds: GET /events.ics, /events/{id}.ics, Accept: text/calendar', () => {
  const tag = unique('feedtag');
  const hostile = 'Line one\nLine two, with commas; and semicolons\nBEGIN:VEVENT\nEND:VCALENDAR ' + 'é'.repeat(40);
  const ids: Record<string, number> = {};
  let venue: { id: number };
  let category: { id: number };

  before(async function () {
    this.timeout(60_000);
    await searchReady();
    venue = await create('/venues', {
      venue: 'Salle Pleyel',
      address: '252 rue du Faubourg Saint-Honoré',
      city: 'Paris',
      country: 'France',
      geo_lat: 48.8773,
      geo_lng: 2.3017,
    });
    const organizer = await create('/organizers', { organizer: 'Night "Club"', email: 'club@example.org' });
    category = await create('/categories', { name: unique('Feedcat') });
    const event = async (name: string, fields: Record<string, unknown>) => {
      ids[name] = (await create('/events', { title: name, tags: [tag], ...fields })).id;
    };
    await event('Paris night', {
      start_date: daysFromNow(10, '20:00:00', 'Europe/Paris'),
      end_date: daysFromNow(10, '23:00:00', 'Europe/Paris'),
      timezone: 'Europe/Paris',
      venue: venue.id,
      organizer: [organizer.id],
      categories: [category.id],
      description:
        '<p>Bring <strong>friends</strong> &amp; family</p><p>Doors at <a href="https://example.org/doors">seven</a></p>',
    });
    await event('New York brunch', {
      start_date: daysFromNow(11, '11:00:00', 'America/New_York'),
      end_date: daysFromNow(11, '13:30:00', 'America/New_York'),
      timezone: 'America/New_York',
    });
    await event('All-day fair', {
      start_date: daysFromNow(12, '00:00:00'),
      end_date: daysFromNow(13, '23:59:59'),
      all_day: true,
    });
    await event(hostile, { start_date: daysFromNow(13), end_date: daysFromNow(13, '22:00:00') });
    await event('Protected party', {
      start_date: daysFromNow(14),
      end_date: daysFromNow(14, '22:00:00'),
      password: 'pw',
    });
    await event('Draft plan', { start_date: daysFromNow(15), end_date: daysFromNow(15, '22:00:00'), status: 'draft' });
    await settle();
  });

  it('lists what the JSON list lists for the same parameters, parsed by ical.js, protected events left out', async () => {
    const res = await feed(`/events.ics?tags=${tag}`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/calendar; charset=utf-8');
    const text = res.body as string;
    expectWellFormed(text);
    const { events } = parseFeed(text);
    const list = await api.get(`/events?tags=${tag}&per_page=50`);
    const listed = (list.body.events as { id: number; title: string }[]).filter((e) => e.id !== ids['Protected party']);
    const host = new URL(testWorld().config.apiUrl).host;
    expect(events.map((e) => e.uid)).to.deep.equal(listed.map((e) => `event-${e.id}@${host}`));
    expect(events.map((e) => e.summary)).to.deep.equal(listed.map((e) => e.title));
    expect(events.map((e) => e.summary)).to.not.include('Draft plan');
    // Each entry's instants are the JSON list's.
    for (const [i, json] of (list.body.events as Record<string, string>[])
      .filter((e) => Number(e.id) !== ids['Protected party'])
      .entries()) {
      if (json.all_day) continue;
      expect(events[i]!.startUnix, json.title).to.equal(Date.parse(`${json.utc_start_date.replace(' ', 'T')}Z`) / 1000);
    }
  });

  it('counts in X-Total what it lists, facets asked for beside a facet filter too', async () => {
    for (const query of [
      `tags=${tag}&categories=${category.id}`,
      `tags=${tag}&categories=${category.id}&facets=categories`,
    ]) {
      const res = await feed(`/events.ics?${query}`);
      expect(res.status, query).to.equal(200);
      expect(
        parseFeed(res.body as string).events.map((e) => e.summary),
        query,
      ).to.deep.equal(['Paris night']);
      expect(res.headers.get('x-total'), query).to.equal('1');
    }
  });

  it('writes zones, all-day dates, escaping, venue, organizer, categories and links as RFC 5545 says', async () => {
    const { events, zones } = parseFeed((await feed(`/events.ics?tags=${tag}`)).body as string);
    const byTitle = new Map(events.map((e) => [e.summary, e]));
    expect(zones).to.have.members(['Europe/Paris', 'America/New_York']);
    const paris = byTitle.get('Paris night')!;
    expect(paris.tzid).to.equal('Europe/Paris');
    expect(paris.start.toString()).to.match(/T20:00:00$/);
    expect(paris.location).to.equal('Salle Pleyel\n252 rue du Faubourg Saint-Honoré, Paris, France');
    expect(paris.geo).to.deep.equal([48.8773, 2.3017]);
    expect(paris.organizer).to.equal('mailto:club@example.org');
    expect(paris.categories[0]).to.match(/^Feedcat/);
    expect(paris.categories).to.include(tag);
    // Paragraphs apart by a blank line, a link's address after its text.
    expect(paris.description).to.equal('Bring friends & family\n\nDoors at seven (https://example.org/doors)');
    expect(paris.url).to.match(/^http/);
    expect(paris.status).to.equal('CONFIRMED');
    expect(byTitle.get('New York brunch')!.tzid).to.equal('America/New_York');
    const fair = byTitle.get('All-day fair')!;
    expect(fair.start.isDate).to.equal(true);
    expect(fair.end.isDate).to.equal(true);
    expect(fair.end.toJSDate().getTime() - fair.start.toJSDate().getTime()).to.equal(2 * 86_400_000);
    expect(byTitle.get(hostile), 'the hostile title round-trips').to.not.equal(undefined);
    expect(events.filter((e) => e.summary.startsWith('Line one'))).to.have.length(1);
  });

  it('answers the same feed to Accept: text/calendar, and one event at /events/{id}.ics', async () => {
    const ics = (await feed(`/events.ics?tags=${tag}`)).body as string;
    const negotiated = await feed(`/events?tags=${tag}`, { Accept: 'text/calendar' });
    expect(negotiated.headers.get('content-type')).to.equal('text/calendar; charset=utf-8');
    expect(negotiated.headers.get('vary')).to.match(/Accept\b/);
    expect(parseFeed(negotiated.body as string).events).to.deep.equal(parseFeed(ics).events);
    const single = await feed(`/events/${ids['Paris night']}.ics`);
    expect(single.status).to.equal(200);
    expectWellFormed(single.body as string);
    const one = parseFeed(single.body as string);
    expect(one.zones).to.deep.equal(['Europe/Paris']);
    expect(one.events.map((e) => e.summary)).to.deep.equal(['Paris night']);
    const viaAccept = await feed(`/events/${ids['Paris night']}`, { Accept: 'text/calendar' });
    expect(parseFeed(viaAccept.body as string).events).to.deep.equal(one.events);
    // The media type as the feed is sent, its charset named: the same.
    for (const accept of ['text/calendar; charset=utf-8', 'text/calendar;charset=UTF-8']) {
      const named = await feed(`/events?tags=${tag}`, { Accept: accept });
      expect(named.headers.get('content-type'), accept).to.equal('text/calendar; charset=utf-8');
      expect(parseFeed(named.body as string).events).to.deep.equal(parseFeed(ics).events);
    }
    expect((await api.get(`/events/${ids['Paris night']}`)).headers.get('content-type')).to.match(/json/);
  });

  it('grows SEQUENCE with each change, and revalidates feeds with 304 until a change', async () => {
    const path = `/events/${ids['Paris night']}.ics`;
    const before = await feed(path);
    const sequence = parseFeed(before.body as string).events[0]!.sequence;
    const etag = before.headers.get('etag')!;
    expect((await feed(path, { 'If-None-Match': etag })).status).to.equal(304);
    const list = await feed(`/events.ics?tags=${tag}`);
    const listTag = list.headers.get('etag')!;
    expect((await feed(`/events.ics?tags=${tag}`, { 'If-None-Match': listTag })).status).to.equal(304);
    const patched = await request(
      'PATCH',
      `${ROOT}/events/${ids['Paris night']}`,
      { title: 'Paris night, later' },
      {
        key: true,
        headers: { Prefer: 'wait-for-index' },
      },
    );
    expect(patched.status).to.equal(200);
    const after = await feed(path, { 'If-None-Match': etag });
    expect(after.status).to.equal(200);
    const changed = parseFeed(after.body as string).events[0]!;
    expect(changed.summary).to.equal('Paris night, later');
    expect(changed.sequence).to.be.greaterThan(sequence);
    const relisted = await feed(`/events.ics?tags=${tag}`, { 'If-None-Match': listTag });
    expect(relisted.status).to.equal(200);
    const inList = parseFeed(relisted.body as string).events.find((e) => e.summary === 'Paris night, later')!;
    expect(inList.sequence).to.be.greaterThan(sequence);
  });

  it('shows the anonymous view to a caller with a key, refuses protected and unreadable events', async () => {
    const keyed = await request('GET', `${ROOT}/events.ics?tags=${tag}`, undefined, { key: true });
    const anonymous = await feed(`/events.ics?tags=${tag}`);
    expect(parseFeed(keyed.body as string).events).to.deep.equal(parseFeed(anonymous.body as string).events);
    expect(keyed.headers.get('cache-control')).to.equal('public, no-cache');
    const protectedOne = await feed(`/events/${ids['Protected party']}.ics`);
    expect(protectedOne.status).to.equal(403);
    expect(protectedOne.body.code).to.equal('event-password-protected');
    expect((await feed(`/events/${ids['Draft plan']}.ics`)).status).to.be.oneOf([401, 403]);
    expect((await feed('/events/999999999.ics')).status).to.equal(404);
    expect((await feed('/events/abc.ics')).status).to.equal(404);
  });

  it('answers a bad parameter with a 400 JSON envelope naming it', async () => {
    for (const query of ['start_date=notadate', 'geoloc_lat=500', 'orderby=nonsense', 'tags=no-such-tag-at-all']) {
      const res = await feed(`/events.ics?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.headers.get('content-type'), query).to.match(/application\/json/);
      expect(res.body.data.status, query).to.equal(400);
      expect(Object.keys(res.body.data.params ?? {}), query).to.include(query.split('=')[0]);
    }
  });

  it('writes a change of an embedded venue or organizer into a feed that showed the event before', async () => {
    const own = unique('feedkept');
    const place = await create('/venues', { venue: 'Old hall', city: 'Lyon' });
    const host = await create('/organizers', { organizer: 'Old host', email: 'old@example.org' });
    await create('/events', {
      title: 'Kept concert',
      tags: [own],
      venue: place.id,
      organizer: [host.id],
      start_date: daysFromNow(20, '19:00:00', 'Europe/Paris'),
      end_date: daysFromNow(20, '21:00:00', 'Europe/Paris'),
      timezone: 'Europe/Paris',
    });
    await settle();
    const path = `/events.ics?tags=${own}`;
    const first = parseFeed((await feed(path)).body as string).events;
    expect(first.map((e) => [e.location, e.organizer])).to.deep.equal([['Old hall\nLyon', 'mailto:old@example.org']]);
    // Written again, the same text: what the first answer wrote, kept.
    expect(parseFeed((await feed(path)).body as string).events).to.deep.equal(first);
    for (const [route, body] of [
      [`/venues/${place.id}`, { venue: 'New hall' }],
      [`/organizers/${host.id}`, { email: 'new@example.org' }],
    ] as const) {
      expect((await request('PATCH', `${ROOT}${route}`, body, { key: true })).status, route).to.equal(200);
    }
    await settle();
    const [changed] = parseFeed((await feed(path)).body as string).events;
    expect([changed!.location, changed!.organizer]).to.deep.equal(['New hall\nLyon', 'mailto:new@example.org']);
    expect(changed!.sequence).to.be.greaterThan(first[0]!.sequence);
  });

  it('compresses a large feed as the client accepts, decoding to the same calendar', async () => {
    const url = `${testWorld().baseUrl}${ROOT}/events.ics?tags=${tag}`;
    const plain = await (await fetch(url, { headers: { 'Accept-Encoding': 'identity' } })).text();
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(url, { headers: { 'Accept-Encoding': encoding } });
      expect(res.headers.get('content-encoding'), encoding).to.equal(encoding);
      expect(await res.text(), encoding).to.equal(plain);
    }
  });
});
