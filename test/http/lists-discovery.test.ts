import { expect } from 'chai';
import { api, request, ROOT } from '../support/api';
import { as, callers, type Caller, type Callers } from '../support/access';
import { conforming } from '../support/conformance';
import {
  allListed,
  flagFacetOf,
  histogramOf,
  inBox,
  linkFacetOf,
  placesOf,
  tilesOf,
  type ApiEvent,
} from '../support/discovery';
import { expectInvalid } from '../support/errors';
import { create, daysFromNow, searchReady, settle, unique } from '../support/lists';
import { testWorld } from '../support/harness';
import { aliasName } from '../../src/search/indexNames';

const ALL_FACETS = ['categories', 'tags', 'venue', 'organizer', 'featured', 'ticketed'] as const;
type Facet = (typeof ALL_FACETS)[number];

/**
 * EXTENSIONS part 14 over HTTP: every facet count, histogram bucket and tile count is compared
 * with counts made from the listed events themselves (every page), per role. All events of this
 * file are children of one parent event, so `post_parent` keeps other tests' events out.
 */
describe('lists: GET /events facets, histogram, geo_grid and geoloc_bounds', function () {
  this.timeout(120_000);
  let who: Callers;
  let scope: string;
  const ids: Record<string, number> = {};
  const day = daysFromNow(20).slice(0, 10);

  before(async () => {
    await searchReady();
    who = await callers();
    const word = unique('disco');
    const parent = await create('/events', {
      title: `Discovery parent ${word}`,
      start_date: daysFromNow(19),
      end_date: daysFromNow(19, '22:00:00'),
    });
    scope = `post_parent=${parent.id}`;
    const venue = async (name: string, fields: Record<string, unknown>) =>
      (await create('/venues', { venue: `${name} ${word}`, ...fields })).id as number;
    ids.paris = await venue('Salle Paris', { geo_lat: 48.8566, geo_lng: 2.3522 });
    ids.fijiEast = await venue('Suva East', { geo_lat: -17.1, geo_lng: 179.5 });
    ids.fijiWest = await venue('Taveuni West', { geo_lat: -16.9, geo_lng: -179.5 });
    ids.draftVenue = await venue('Draft hall', { geo_lat: 45.76, geo_lng: 4.83, status: 'draft' });
    ids.ownDraftVenue = (
      await api.post(
        '/venues',
        { venue: `Author's own draft hall ${word}`, status: 'draft', geo_lat: 50.1, geo_lng: 8.7 },
        as(who.author),
      )
    ).body.id;
    ids.nowhere = await venue('Nowhere', {});
    ids.trashedVenue = await venue('Soon trashed', { geo_lat: 40.4, geo_lng: -3.7 });
    ids.org1 = (await create('/organizers', { organizer: `Blue Note ${word}` })).id;
    ids.org2 = (await create('/organizers', { organizer: `Garage ${word}` })).id;
    ids.draftOrg = (await create('/organizers', { organizer: `Secret crew ${word}`, status: 'draft' })).id;
    ids.jazz = (await create('/categories', { name: `Jazz ${word}` })).id;
    ids.rock = (await create('/categories', { name: `Rock ${word}` })).id;
    ids.tagA = (await create('/tags', { name: `alpha ${word}` })).id;
    ids.tagB = (await create('/tags', { name: `beta ${word}` })).id;
    const event = async (name: string, start: string, fields: Record<string, unknown>, key?: string) => {
      const body = {
        title: `${name} ${word}`,
        start_date: start,
        end_date: `${start.slice(0, 10)} 23:59:00`,
        timezone: 'UTC',
        post_parent: parent.id,
        ...fields,
      };
      const res = key ? await api.post('/events', body, { key }) : await api.post('/events', body);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      ids[name] = res.body.id;
    };
    // A late-evening UTC start: the next day in Auckland (UTC+13), the same day in New York.
    await event('late', `${day} 23:30:00`, {
      categories: [ids.jazz],
      tags: [ids.tagA],
      venue: ids.paris,
      organizer: [ids.org1],
      featured: true,
      ticketed: true,
    });
    await event('east', `${day} 10:00:00`, {
      categories: [ids.jazz, ids.rock],
      tags: [ids.tagB],
      venue: ids.fijiEast,
      featured: true,
    });
    await event('west', daysFromNow(21, '12:00:00'), {
      categories: [ids.rock],
      venue: ids.fijiWest,
      organizer: [ids.org2],
      ticketed: true,
    });
    await event('drafted links', daysFromNow(22, '12:00:00'), {
      categories: [ids.rock],
      venue: ids.draftVenue,
      organizer: [ids.draftOrg],
    });
    await event('protected', daysFromNow(23, '12:00:00'), {
      categories: [ids.jazz],
      venue: ids.paris,
      organizer: [ids.org1],
      password: 'open sesame',
    });
    await event('draft', daysFromNow(24, '12:00:00'), { categories: [ids.jazz], venue: ids.paris, status: 'draft' });
    await event('hidden', daysFromNow(25, '12:00:00'), { categories: [ids.jazz], hide_from_listings: true });
    await event('nowhere', daysFromNow(40, '09:00:00'), {
      tags: [ids.tagA, ids.tagB],
      venue: [ids.nowhere, ids.trashedVenue, ids.paris],
      organizer: [ids.org1, ids.org2],
    });
    await event(
      'own draft',
      daysFromNow(26, '12:00:00'),
      {
        categories: [ids.rock],
        venue: ids.ownDraftVenue,
        status: 'draft',
      },
      who.author.key,
    );
    expect((await api.delete(`/venues/${ids.trashedVenue}`)).status).to.equal(200);
    await settle();
  });

  const roles = (): Caller[] => [who.anonymous, who.author, who.editor];

  /**
   * The answer's facets next to the same facets counted on the lists without each facet's filter;
   * with `extra` (histogram, tiles), those are counted on the list itself.
   */
  async function checkFacets(
    caller: Caller,
    filters: Partial<Record<Facet, string>>,
    lang = 'en',
    facets: readonly Facet[] = ALL_FACETS,
    extra = '',
  ) {
    const query = (omit?: Facet) =>
      [scope, ...Object.entries(filters).flatMap(([name, value]) => (name === omit ? [] : [`${name}=${value}`]))].join(
        '&',
      );
    const res = await api.get(`/events?${query()}&facets=${facets.join(',')}&per_page=2${extra}`, as(caller));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const listed = await allListed(query(), as(caller));
    expect(res.body.total, 'the list is unchanged by facets').to.equal(listed.length);
    expect(Object.keys(res.body.facets)).to.deep.equal(facets);
    for (const facet of facets) {
      const events = await allListed(query(facet), as(caller));
      const expected =
        facet === 'featured' || facet === 'ticketed' ? flagFacetOf(facet, events) : linkFacetOf(facet, events, lang);
      expect(res.body.facets[facet], `${caller.role}: facet ${facet} with ${JSON.stringify(filters)}`).to.deep.equal(
        expected,
      );
    }
    return res.body;
  }

  it('every facet count equals the count over the listed events, per role, with no filter', async () => {
    for (const caller of roles()) await checkFacets(caller, {});
  });

  it('facets are disjunctive: each applies every filter but its own (Jazz chosen still counts Rock)', async () => {
    for (const caller of roles()) {
      const body = await checkFacets(caller, { categories: String(ids.jazz) });
      if (caller.role !== 'anonymous') continue;
      // Listed: the Jazz events (late, east, protected); the category facet counts Rock over
      // every event, as if Jazz were not chosen (east, west, drafted links).
      expect(body.total).to.equal(3);
      const count = (id: number) => body.facets.categories.find((entry: { id: number }) => entry.id === id)?.count;
      expect([count(ids.jazz), count(ids.rock)]).to.deep.equal([3, 3]);
      expect(body.facets.featured).to.deep.equal([
        { value: true, count: 2 },
        { value: false, count: 1 },
      ]);
    }
    const filters = [
      { categories: String(ids.jazz), venue: String(ids.paris), featured: 'true' },
      { categories: String(ids.rock), tags: String(ids.tagB) },
      { organizer: `${ids.org1},${ids.org2}`, ticketed: 'false' },
    ];
    for (const filter of filters) for (const caller of roles()) await checkFacets(caller, filter);
  });

  it('facets without a filter, the histogram and the tiles count exactly the listed events beside filtered facets', async () => {
    const filters = [
      { categories: String(ids.jazz) },
      { categories: String(ids.rock), featured: 'false' },
      { venue: String(ids.paris), tags: String(ids.tagA) },
    ];
    for (const filter of filters) {
      for (const caller of roles()) {
        const extra = '&histogram=day&geo_grid=3';
        const body = await checkFacets(caller, filter, 'en', ['categories', 'tags', 'venue', 'featured'], extra);
        const listed = await allListed(
          [scope, ...Object.entries(filter).map(([k, v]) => `${k}=${v}`)].join('&'),
          as(caller),
        );
        const what = `${caller.role} with ${JSON.stringify(filter)}`;
        expect(body.histogram, what).to.deep.equal(histogramOf(listed, 'day', 'UTC'));
        const tiles = new Map(body.geo_grid.map((tile: { tile: string; count: number }) => [tile.tile, tile.count]));
        expect(tiles, what).to.deep.equal(tilesOf(listed, 3));
      }
    }
  });

  it('records the caller may not see are never named or counted under them', async () => {
    const anonymous = await checkFacets(who.anonymous, {});
    const venueIds = anonymous.facets.venue.map((entry: { id: number }) => entry.id);
    expect(venueIds).to.include(ids.paris);
    expect(venueIds).to.not.include.members([ids.draftVenue, ids.ownDraftVenue, ids.trashedVenue]);
    expect(anonymous.facets.organizer.map((entry: { id: number }) => entry.id)).to.not.include(ids.draftOrg);
    // Paris: the late event and the nowhere event; the protected one's venue is blanked.
    expect(anonymous.facets.venue.find((entry: { id: number }) => entry.id === ids.paris).count).to.equal(2);
    const author = await checkFacets(who.author, {});
    expect(author.facets.venue.map((entry: { id: number }) => entry.id)).to.include(ids.ownDraftVenue);
    const editor = await checkFacets(who.editor, {});
    const editorVenues = editor.facets.venue.map((entry: { id: number }) => entry.id);
    expect(editorVenues).to.include.members([ids.draftVenue, ids.ownDraftVenue]);
    expect(editorVenues).to.not.include(ids.trashedVenue);
    // Editors see the protected event's venue, the draft and the hidden event.
    expect(editor.facets.venue.find((entry: { id: number }) => entry.id === ids.paris).count).to.equal(4);
  });

  it('facets name records in the request language', async () => {
    const patched = await api.patch(`/categories/${ids.rock}?i18n_language=fr`, { name: `Roque ${ids.rock}` });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    await settle();
    const res = await request('GET', `/fr${ROOT}/events?${scope}&facets=categories`);
    expect(res.status).to.equal(200);
    const rock = res.body.facets.categories.find((entry: { id: number }) => entry.id === ids.rock);
    expect(rock.name).to.equal(`Roque ${ids.rock}`);
    const listed = await allListed(`${scope}&i18n_language=fr`);
    expect(res.body.facets.categories).to.deep.equal(linkFacetOf('categories', listed, 'fr'));
  });

  for (const [zone, interval] of [
    ['Pacific/Auckland', 'day'],
    ['America/New_York', 'day'],
    ['UTC', 'day'],
    ['Asia/Kolkata', 'week'],
    ['Europe/Paris', 'month'],
  ] as const) {
    it(`histogram=${interval} in ${zone}: one bucket per local ${interval} of the listed starts`, async () => {
      for (const caller of roles()) {
        const res = await conforming.get(`/events?${scope}&histogram=${interval}&tz=${zone}&per_page=1`, as(caller));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const listed = await allListed(scope, as(caller));
        expect(res.body.histogram, `${caller.role} ${zone}`).to.deep.equal(histogramOf(listed, interval, zone));
      }
    });
  }

  it('a late-evening UTC start falls on the next local day east of UTC and the same day west of it', async () => {
    const late = `include=${ids.late}`;
    const auckland = await api.get(`/events?${late}&histogram=day&tz=Pacific/Auckland`);
    const next = new Date(`${day}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    expect(auckland.body.histogram).to.deep.equal([{ start: `${next.toISOString().slice(0, 10)} 00:00:00`, count: 1 }]);
    const newYork = await api.get(`/events?${late}&histogram=day&tz=america/new_york`);
    expect(newYork.body.histogram).to.deep.equal([{ start: `${day} 00:00:00`, count: 1 }]);
    // Without tz: the site time zone (UTC in tests).
    const site = await api.get(`/events?${late}&histogram=day`);
    expect(site.body.histogram).to.deep.equal([{ start: `${day} 00:00:00`, count: 1 }]);
  });

  for (const zoom of [0, 3, 8, 14]) {
    it(`geo_grid=${zoom}: tile counts and centroids from the listed venues`, async () => {
      for (const caller of roles()) {
        const res = await conforming.get(`/events?${scope}&geo_grid=${zoom}&per_page=1`, as(caller));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const expected = tilesOf(await allListed(scope, as(caller)), zoom);
        const actual = new Map<string, number>(
          res.body.geo_grid.map((tile: { tile: string; count: number }) => [tile.tile, tile.count]),
        );
        expect(actual, `${caller.role} zoom ${zoom}`).to.deep.equal(expected);
      }
      if (zoom !== 14) return;
      const paris = (await api.get(`/events?${scope}&geo_grid=14`)).body.geo_grid.find(
        (tile: { lat: number }) => Math.abs(tile.lat - 48.8566) < 0.01,
      );
      expect(paris.lat).to.be.closeTo(48.8566, 1e-5);
      expect(paris.lng).to.be.closeTo(2.3522, 1e-5);
    });
  }

  for (const box of [
    [0, 179, -30, -179],
    [-16, 170, -18, -170],
    [60, -10, 40, 10],
    [-16.95, 179.6, -17.2, 179.4],
  ]) {
    it(`geoloc_bounds=${box.join(',')}: the events whose shown venue lies in the box${box[1]! > box[3]! ? ' (across the antimeridian)' : ''}`, async () => {
      for (const caller of roles()) {
        const res = await api.get(`/events?${scope}&geoloc_bounds=${box.join(',')}&per_page=50&geo_grid=2`, as(caller));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const listed = await allListed(scope, as(caller));
        const inside = listed.filter((event) => placesOf(event).some((p) => inBox(p, box)));
        expect(
          res.body.events.map((e: ApiEvent) => e.id),
          `${caller.role} ${box}`,
        ).to.deep.equal(inside.map((e) => e.id));
        const tileTotal = res.body.geo_grid.reduce((sum: number, tile: { count: number }) => sum + tile.count, 0);
        expect(tileTotal).to.be.at.least(inside.length);
      }
    });
  }

  it('across the antimeridian: the Fiji venues on both sides, nothing else', async () => {
    const res = await api.get(`/events?${scope}&geoloc_bounds=-10,179,-30,-179`);
    expect(res.body.events.map((e: ApiEvent) => e.id).sort()).to.deep.equal([ids.east, ids.west].sort());
  });

  it('facets, histogram and tiles together, with the list unchanged', async () => {
    const plain = await api.get(`/events?${scope}&per_page=3`);
    const res = await conforming.get(
      `/events?${scope}&per_page=3&facets=categories,tags,venue,featured&histogram=day&geo_grid=4&categories=${ids.jazz}`,
    );
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body.facets)).to.deep.equal(['categories', 'tags', 'venue', 'featured']);
    expect(res.body.histogram.length).to.be.greaterThan(0);
    expect(res.body.geo_grid.length).to.be.greaterThan(0);
    const jazzOnly = await api.get(`/events?${scope}&per_page=3&categories=${ids.jazz}`);
    expect(res.body.events).to.deep.equal(jazzOnly.body.events);
    expect(res.body.rest_url).to.contain('facets=categories,tags,venue,featured');
    expect(plain.body).to.not.have.property('facets');
  });

  it('bad values are 400s naming the parameter', async () => {
    const bad: [string, string][] = [
      ['facets=venue,colour', 'facets'],
      ['facets=venue,venue', 'facets'],
      ['histogram=hour', 'histogram'],
      ['histogram=day&tz=Mars/Olympus', 'tz'],
      ['tz=UTC%2B2', 'tz'],
      // Known to this Node's ICU (tzdata 2025), not to Elasticsearch's Java: refused by the index.
      ['histogram=week&tz=America/Coyhaique', 'tz'],
      ['geo_grid=30', 'geo_grid'],
      ['geo_grid=-1', 'geo_grid'],
      ['geo_grid=1.5', 'geo_grid'],
      ['geoloc_bounds=1,2,3', 'geoloc_bounds'],
      ['geoloc_bounds=10,0,20,5', 'geoloc_bounds'],
      ['geoloc_bounds=91,0,0,5', 'geoloc_bounds'],
      ['geoloc_bounds=10,-181,0,5', 'geoloc_bounds'],
      ['geoloc_bounds=a,b,c,d', 'geoloc_bounds'],
    ];
    for (const [query, param] of bad) expectInvalid(await api.get(`/events?${query}`), param);
  });

  // Last: it adds an event to the file's scope.
  it("answers a discovery page again from Elasticsearch's request cache until a change is indexed, then counts it", async () => {
    const { services, config } = testWorld();
    const index = aliasName(config, 'event', 'en');
    const cacheHits = async () =>
      (await services.search.indices.stats({ index, metric: 'request_cache' }))._all.total?.request_cache?.hit_count ??
      0;
    const path = `/events?${scope}&facets=categories&histogram=day&per_page=2`;
    const first = await api.get(path);
    expect(first.status).to.equal(200);
    const hitsBefore = await cacheHits();
    const again = await api.get(path);
    expect(again.body).to.deep.equal(first.body);
    expect(await cacheHits(), 'answered from the cache').to.be.greaterThan(hitsBefore);
    const jazz = (body: { facets: { categories: { id: number; count: number }[] } }) =>
      body.facets.categories.find((c) => c.id === ids.jazz)?.count ?? 0;
    await create('/events', {
      title: unique('cached jazz'),
      start_date: daysFromNow(27, '12:00:00'),
      end_date: daysFromNow(27, '13:00:00'),
      post_parent: Number(scope.split('=')[1]),
      categories: [ids.jazz],
    });
    await settle();
    const after = await api.get(path);
    expect(after.body.total).to.equal(first.body.total + 1);
    expect(jazz(after.body)).to.equal(jazz(first.body) + 1);
  });
});

/**
 * A list showing each series once (`hide_subsequent_recurrences`, `include`) counts series: a
 * series with matches in a facet value, a day or a tile counts once there. Expected counts are made
 * from every listed occurrence of the same list, grouped by series.
 */
describe('lists: facets, histogram and tiles of a list showing each series once', function () {
  this.timeout(120_000);
  const ids: Record<string, number> = {};
  let scope: string;

  const seriesIdOf = (event: ApiEvent): number => event.occurrence?.series_id ?? event.id;

  /** Each series of `events` (occurrences and single events) as one event linking all its occurrences link. */
  const seriesOf = (events: ApiEvent[]): ApiEvent[] => {
    const bySeries = new Map<number, ApiEvent>();
    for (const event of events) {
      const id = seriesIdOf(event);
      const seen = bySeries.get(id);
      if (!seen) bySeries.set(id, { ...event, id, venue: [...placesHolders(event)] });
      else seen.venue.push(...placesHolders(event).filter((v) => !seen.venue.some((s: ApiEvent) => s.id === v.id)));
    }
    return [...bySeries.values()];
  };
  const placesHolders = (event: ApiEvent): ApiEvent[] => (Array.isArray(event.venue) ? event.venue : [event.venue]);

  /** Series per local day of their occurrences' starts. */
  const seriesPerDay = (events: ApiEvent[]) => {
    const days = new Map<string, Set<number>>();
    for (const event of events) {
      const [{ start }] = histogramOf([event], 'day', 'UTC');
      days.set(start, (days.get(start) ?? new Set()).add(seriesIdOf(event)));
    }
    return [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([start, s]) => ({ start, count: s.size }));
  };

  before(async () => {
    await searchReady();
    const word = unique('once');
    const parent = await create('/events', {
      title: `Series parent ${word}`,
      start_date: daysFromNow(2),
      end_date: daysFromNow(2, '22:00:00'),
    });
    scope = `post_parent=${parent.id}`;
    ids.lyon = (await create('/venues', { venue: `Lyon ${word}`, geo_lat: 45.76, geo_lng: 4.83 })).id;
    ids.oslo = (await create('/venues', { venue: `Oslo ${word}`, geo_lat: 59.91, geo_lng: 10.75 })).id;
    ids.jazz = (await create('/categories', { name: `Jazz ${word}` })).id;
    ids.folk = (await create('/categories', { name: `Folk ${word}` })).id;
    const event = async (name: string, fields: Record<string, unknown>) => {
      ids[name] = (
        await create('/events', {
          title: `${name} ${word}`,
          start_date: daysFromNow(3, '10:00:00'),
          end_date: daysFromNow(3, '11:00:00'),
          timezone: 'UTC',
          post_parent: parent.id,
          ...fields,
        })
      ).id as number;
    };
    await event('daily', {
      recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
      categories: [ids.jazz],
      venue: ids.lyon,
      featured: true,
    });
    await event('weekly', { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'], categories: [ids.folk], venue: ids.oslo });
    await event('single', { categories: [ids.jazz], venue: ids.lyon });
    await settle();
  });

  for (const [name, query, matches] of [
    ['hide_subsequent_recurrences', () => `${scope}&hide_subsequent_recurrences=true`, () => allListed(scope)],
    [
      'include',
      () => `include=${ids.daily},${ids.single}`,
      // `include` applies no dates: every indexed occurrence of the events named.
      async () =>
        (await allListed(`${scope}&start_date=2000-01-01&end_date=2100-01-01`)).filter((event) =>
          [ids.daily, ids.single].includes(seriesIdOf(event)),
        ),
    ],
  ] as const) {
    it(`${name}: every facet, day and tile counts each series once where it has matches`, async () => {
      const occurrences = await matches();
      const series = seriesOf(occurrences);
      const res = await api.get(`/events?${query()}&facets=categories,featured,venue&histogram=day&tz=UTC&geo_grid=3`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.total).to.equal(series.length);
      expect(res.body.facets.categories).to.deep.equal(linkFacetOf('categories', series));
      expect(res.body.facets.venue).to.deep.equal(linkFacetOf('venue', series));
      expect(res.body.facets.featured).to.deep.equal(flagFacetOf('featured', series));
      expect(res.body.histogram).to.deep.equal(seriesPerDay(occurrences));
      const tiles = Object.fromEntries(
        res.body.geo_grid.map((t: { tile: string; count: number }) => [t.tile, t.count]),
      );
      expect(tiles).to.deep.equal(Object.fromEntries(tilesOf(series, 3)));
    });
  }
});
