import { expect } from 'chai';
import { api, request, ROOT } from '../support/api';
import { create, daysFromNow, listIds, searchReady, settle, unique } from '../support/lists';

/** Every query is scoped to this file's tag so other tests' events never interfere. */
describe('lists: GET /events filters', () => {
  const tag = unique('evtag');
  const word = unique('zorblax');
  const ids: Record<string, number> = {};
  let venueParis: number;
  let venueLyon: number;
  let venueNowhere: number;
  let organizer2: number;
  let category: { id: number; slug: string };
  const list = (query: string, options?: Parameters<typeof listIds>[1]) =>
    listIds(`/events?tags=${tag}&${query}`, options);

  before(async function () {
    this.timeout(120_000);
    await searchReady();
    venueParis = (await create('/venues', { venue: `Salle ${word}`, city: 'Paris', geo_lat: 48.8566, geo_lng: 2.3522 }))
      .id;
    venueLyon = (
      await create('/venues', { venue: 'Halle Tony Garnier', city: 'Lyon', geo_lat: 45.764, geo_lng: 4.8357 })
    ).id;
    venueNowhere = (await create('/venues', { venue: 'Somewhere unknown' })).id;
    const organizer1 = (await create('/organizers', { organizer: 'Blue Note Productions' })).id;
    organizer2 = (await create('/organizers', { organizer: 'Garage Collective' })).id;
    const cat = await create('/categories', { name: unique('Jazzcat') });
    category = { id: cat.id, slug: cat.slug };
    const event = async (name: string, days: number, fields: Record<string, unknown> = {}) => {
      ids[name] = (
        await create('/events', {
          title: name,
          start_date: daysFromNow(days),
          end_date: daysFromNow(days, '23:00:00'),
          tags: [tag],
          ...fields,
        })
      ).id;
    };
    await event('Jazz Night', 10, {
      venue: venueParis,
      organizer: [organizer1],
      categories: [category.id],
      featured: true,
      ticketed: true,
    });
    await event('Rock Festival', 11, {
      venue: venueLyon,
      organizer: [organizer2],
      description: 'Loud guitars all night long',
    });
    await event('Poetry Reading', 12, { venue: venueNowhere });
    await event('Hidden Rehearsal', 13, { hide_from_listings: true });
    await event('Draft Gala', 14, { status: 'draft' });
    await event('Jazz Night Encore', 15, { post_parent: ids['Jazz Night'] });
    await event('Secret Party', 16, { password: 'letmein', description: `Bring your ${word}pass`, venue: venueParis });
    await event('Far Future Expo', 3 * 365 + 10);
    await event('Past Fair', -10);
    await settle();
  });

  const visible = () => [
    ids['Jazz Night'],
    ids['Rock Festival'],
    ids['Poetry Reading'],
    ids['Jazz Night Encore'],
    ids['Secret Party'],
  ];

  it('lists published events of the default window (today to two years on) by start date, hiding hidden ones', async () => {
    expect(await list('')).to.deep.equal(visible());
  });

  it('leaves out list filters sent empty, as if not sent: an empty include shows no hidden event', async () => {
    for (const empty of ['include=', 'include=,', 'include=[]', 'categories=', 'venue=%20', 'status=,', 'organizer=[]'])
      expect(await list(empty), empty).to.deep.equal(visible());
  });

  it('answers the envelope with totals, headers and an echoing rest_url', async () => {
    const res = await api.get(`/events?tags=${tag}&per_page=2`);
    expect(res.status).to.equal(200);
    expect(res.body.events.map((e: { id: number }) => e.id)).to.deep.equal(visible().slice(0, 2));
    expect(res.body.total).to.equal(5);
    expect(res.body.total_pages).to.equal(3);
    expect(res.body.rest_url).to.match(new RegExp(`${ROOT}/events\\?tags=${tag}&per_page=2$`));
    expect(res.body.next_rest_url).to.match(new RegExp(`${ROOT}/events\\?tags=${tag}&per_page=2&page=2$`));
    expect(res.body).not.to.have.property('previous_rest_url');
    expect(res.headers.get('x-total')).to.equal('5');
    expect(res.headers.get('x-total-pages')).to.equal('3');
    expect(res.headers.get('link')).to.equal(`<${res.body.next_rest_url}>; rel="next"`);
    const middle = await api.get(`/events?tags=${tag}&per_page=2&page=2`);
    expect(middle.body.events.map((e: { id: number }) => e.id)).to.deep.equal(visible().slice(2, 4));
    expect(middle.body.previous_rest_url).to.match(new RegExp(`\\?tags=${tag}&per_page=2$`));
    expect(middle.headers.get('link')).to.equal(
      `<${middle.body.next_rest_url}>; rel="next", <${middle.body.previous_rest_url}>; rel="prev"`,
    );
    const last = await api.get(`/events?tags=${tag}&per_page=2&page=3`);
    expect(last.body.events).to.have.length(1);
    expect(last.body).not.to.have.property('next_rest_url');
  });

  it('lists records in the shape of single reads, without json_ld, with occurrence null', async () => {
    const [listed] = (await api.get(`/events?tags=${tag}&include=${ids['Rock Festival']}`)).body.events;
    const single = (await api.get(`/events/${ids['Rock Festival']}`)).body;
    const { json_ld: _ld, ...withoutLd } = single;
    expect(listed).to.deep.equal({ ...withoutLd, occurrence: null });
  });

  it('answers a page past the end 404, an empty first page 200, and bad paging 400', async () => {
    const past = await api.get(`/events?tags=${tag}&per_page=2&page=4`);
    expect(past.status).to.equal(404);
    expect(past.body).to.deep.equal({
      code: 'event-archive-page-not-found',
      message: past.body.message,
      data: { status: 404 },
    });
    const empty = await api.get(`/events?tags=${tag}&search=${unique('nothingmatches')}`);
    expect(empty.status).to.equal(200);
    expect(empty.body).to.include({ total: 0, total_pages: 0 });
    expect(empty.body.events).to.deep.equal([]);
    for (const query of [
      'page=0',
      'per_page=0',
      'page=1.5',
      'per_page=abc',
      'page=-1',
      'page=1e1',
      'per_page=0x10',
      'page=2.0',
    ]) {
      const res = await api.get(`/events?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.code).to.equal('rest_invalid_param');
    }
  });

  it('caps per_page at 50 silently and refuses pages past the 10,000th result', async () => {
    const capped = await api.get(`/events?tags=${tag}&per_page=500`);
    expect(capped.status).to.equal(200);
    expect(capped.body.rest_url).to.match(/per_page=50$/);
    const deep = await api.get('/events?per_page=50&page=201');
    expect(deep.status).to.equal(400);
    expect(deep.body.code).to.equal('page-too-deep');
    expect((await api.get('/events?per_page=50&page=200')).status).to.be.oneOf([200, 404]);
  });

  it('include lists exactly those events, ignoring dates and hiding', async () => {
    const wanted = [ids['Hidden Rehearsal'], ids['Far Future Expo'], ids['Past Fair']];
    expect(await list(`include=${wanted.join(',')}`)).to.deep.equal([
      ids['Past Fair'],
      ids['Hidden Rehearsal'],
      ids['Far Future Expo'],
    ]);
    // The same as a JSON array, and as repeated values (CONTRACT 2).
    const asJson = await list(`include=${encodeURIComponent(JSON.stringify(wanted))}`);
    expect(asJson).to.deep.equal(await list(wanted.map((id) => `include[]=${id}`).join('&')));
    expect(asJson).to.have.members(wanted);
    expect((await api.get('/events?include=abc')).status).to.equal(400);
  });

  it('refuses filter IDs past the largest the search index holds with a 400 naming them, on every list', async () => {
    for (const path of [
      '/events?include=2147483648',
      '/events.ics?include=2147483648',
      '/events?venue=3000000000',
      '/categories?exclude=3000000000',
      '/tags?include=1,9007199254740991',
    ]) {
      const res = await api.get(path);
      expect(res.status, path).to.equal(400);
      expect(res.body.code, path).to.equal('rest_invalid_param');
      expect(Object.keys(res.body.data.params), path).to.have.length(1);
    }
    expect(await list('include=2147483647')).to.deep.equal([]);
  });

  it('filters by categories and tags, by ID or slug; unknown ones are 400', async () => {
    expect(await list(`categories=${category.id}`)).to.deep.equal([ids['Jazz Night']]);
    expect(await list(`categories[]=${category.slug}`)).to.deep.equal([ids['Jazz Night']]);
    // A slug however it is written, as by-slug routes take it: case and accents do not matter.
    expect(await list(`categories=${encodeURIComponent(category.slug.toUpperCase())}`)).to.deep.equal([
      ids['Jazz Night'],
    ]);
    const unknownCategory = await api.get(`/events?categories=no-such-category-${tag}`);
    expect(unknownCategory.status).to.equal(400);
    expect(unknownCategory.body.data.params).to.have.property('categories');
    const unknownTag = await api.get('/events?tags=999999');
    expect(unknownTag.status).to.equal(400);
    expect(unknownTag.body.data.params).to.have.property('tags');
  });

  it('includes the descendants of a category: a parent matches the events filed under its children', async () => {
    const familyTag = unique('famtag');
    const parent = await create('/categories', { name: unique('Music') });
    const child = await create('/categories', { name: unique('Jazz'), parent: parent.id });
    const grandchild = await create('/categories', { name: unique('Bebop'), parent: child.id });
    const other = await create('/categories', { name: unique('Theatre') });
    const bebop = (
      await create('/events', {
        title: 'Bebop Night',
        start_date: daysFromNow(20),
        end_date: daysFromNow(20, '23:00:00'),
        tags: [familyTag],
        categories: [grandchild.id],
      })
    ).id;
    await settle();
    const family = (categories: string) => listIds(`/events?tags=${familyTag}&categories=${categories}`);
    expect(await family(String(parent.id))).to.deep.equal([bebop]);
    expect(await family(child.slug)).to.deep.equal([bebop]);
    expect(await family(String(grandchild.id))).to.deep.equal([bebop]);
    expect(await family(String(other.id))).to.deep.equal([]);
    expect((await api.patch(`/categories/${child.id}`, { parent: 0 })).status).to.equal(200);
    expect(await family(String(parent.id)), 'moved out of the family').to.deep.equal([]);
    expect(await family(String(child.id))).to.deep.equal([bebop]);
  });

  it('filters by venue and organizer (any of), featured and ticketed', async () => {
    // The protected event's venue is blanked for anonymous callers: the filter skips it for them.
    expect(await list(`venue=${venueParis}`)).to.deep.equal([ids['Jazz Night']]);
    expect(await list(`venue=${venueParis}`, { key: true })).to.deep.equal([ids['Jazz Night'], ids['Secret Party']]);
    expect(await list(`venue=${venueLyon},${venueNowhere}`)).to.deep.equal([
      ids['Rock Festival'],
      ids['Poetry Reading'],
    ]);
    expect(await list(`organizer=${organizer2}`)).to.deep.equal([ids['Rock Festival']]);
    expect(await list('featured=true')).to.deep.equal([ids['Jazz Night']]);
    expect(await list('featured=false')).to.deep.equal(visible().slice(1));
    expect(await list('ticketed=1')).to.deep.equal([ids['Jazz Night']]);
    expect(await list('ticketed=no')).to.deep.equal(visible().slice(1));
  });

  it('filters by geoloc presence and by distance, with the distance in each result', async () => {
    // Anonymous callers do not see the protected event's location: geo filters skip it for them.
    expect(await list('geoloc=true')).to.deep.equal([ids['Jazz Night'], ids['Rock Festival']]);
    expect(await list('geoloc=true', { key: true })).to.deep.equal([
      ids['Jazz Night'],
      ids['Rock Festival'],
      ids['Secret Party'],
    ]);
    expect(await list('geoloc=false')).to.deep.equal([ids['Poetry Reading'], ids['Jazz Night Encore']]);
    // Versailles is about 17 km (10.6 mi) from central Paris; Lyon about 390 km.
    const near = await api.get(`/events?tags=${tag}&geoloc_lat=48.8049&geoloc_lng=2.1204`);
    expect(near.body.events.map((e: { id: number }) => e.id)).to.deep.equal([ids['Jazz Night']]);
    expect(near.body.events[0].distance).to.be.closeTo(10.9, 0.5);
    const tight = await list('geoloc_lat=48.8049&geoloc_lng=2.1204&geoloc_radius=10&geoloc_unit=mi');
    expect(tight).to.deep.equal([]);
    const km = await api.get(
      `/events?tags=${tag}&geoloc_lat=48.8049&geoloc_lng=2.1204&geoloc_radius=18&geoloc_unit=km`,
    );
    expect(km.body.events.map((e: { distance: number }) => e.distance)).to.have.length(1);
    expect(km.body.events[0].distance).to.be.closeTo(17.5, 0.6);
    // Any case, as `order` and `orderby` take theirs.
    const upper = await api.get(
      `/events?tags=${tag}&geoloc_lat=48.8049&geoloc_lng=2.1204&geoloc_radius=18&geoloc_unit=KM&order=ASC`,
    );
    expect(upper.body.events).to.deep.equal(km.body.events);
    const far = await api.get(
      `/events?tags=${tag}&geoloc_lat=48.8049&geoloc_lng=2.1204&geoloc_radius=500&geoloc_unit=km&orderby=distance&order=desc`,
    );
    expect(far.body.events.map((e: { id: number }) => e.id)).to.deep.equal([ids['Rock Festival'], ids['Jazz Night']]);
    const onlyLat = await api.get('/events?geoloc_lat=48.8');
    expect(onlyLat.status).to.equal(400);
    expect(onlyLat.body.data.params).to.have.property('geoloc_lng');
    const distanceWithoutPoint = await api.get('/events?orderby=distance');
    expect(distanceWithoutPoint.status).to.equal(400);
  });

  it('orders titles up to their full length (500 characters) alphabetically, in either order', async () => {
    const titled = unique('titled');
    const titles = [`A${'a'.repeat(299)}`, 'Middle title', `Z${'z'.repeat(499)}`];
    const created = [];
    for (const title of titles)
      created.push(
        (await create('/events', { title, start_date: daysFromNow(8), end_date: daysFromNow(8), tags: [titled] })).id,
      );
    await settle();
    expect(await listIds(`/events?tags=${titled}&orderby=title`)).to.deep.equal(created);
    expect(await listIds(`/events?tags=${titled}&orderby=title&order=desc`)).to.deep.equal([...created].reverse());
  });

  it('measures an event with several venues to its nearest venue, in either order', async () => {
    const twoCities = unique('twocities');
    const { id } = await create('/events', {
      title: 'Paris and Lyon',
      start_date: daysFromNow(9),
      end_date: daysFromNow(9),
      venue: [venueParis, venueLyon],
      tags: [twoCities],
    });
    await settle();
    for (const order of ['asc', 'desc']) {
      const res = await api.get(
        `/events?tags=${twoCities}&geoloc_lat=48.8566&geoloc_lng=2.3522&geoloc_radius=10&geoloc_unit=km&orderby=distance&order=${order}`,
      );
      expect(
        res.body.events.map((e: { id: number; distance: number }) => [e.id, e.distance]),
        order,
      ).to.deep.equal([[id, 0]]);
    }
  });

  it('filters by post_parent, which must be an existing event', async () => {
    expect(await list(`post_parent=${ids['Jazz Night']}`)).to.deep.equal([ids['Jazz Night Encore']]);
    const bad = await api.get(`/events?post_parent=${venueParis}`);
    expect(bad.status).to.equal(400);
    expect(bad.body.data.params).to.have.property('post_parent');
  });

  it('lets anonymous callers list published events only; editors see every status', async () => {
    const draft = await api.get(`/events?tags=${tag}&status=draft`);
    expect(draft.status).to.equal(400);
    expect(draft.body.data.params).to.have.property('status');
    expect(await list('status=draft', { key: true })).to.deep.equal([ids['Draft Gala']]);
    const all = await list('per_page=50', { key: true });
    expect(all).to.include.members([ids['Hidden Rehearsal'], ids['Draft Gala']]);
  });

  it('searches title, description, venue, organizer and category names, typo-tolerant', async () => {
    // In start order: how the two rank depends on every document in the shared index.
    expect(await list('search=jazz&orderby=start_date')).to.deep.equal([ids['Jazz Night'], ids['Jazz Night Encore']]);
    expect(await list('search=jaz%20nihgt&orderby=start_date')).to.deep.equal([
      ids['Jazz Night'],
      ids['Jazz Night Encore'],
    ]);
    expect(await list('search=guitar')).to.deep.equal([ids['Rock Festival']]);
    expect(await list('search=tony%20garnier')).to.deep.equal([ids['Rock Festival']]);
    expect(await list('search=garage%20collective')).to.deep.equal([ids['Rock Festival']]);
    expect(await list(`search=${category.slug}`)).to.deep.equal([ids['Jazz Night']]);
    // Query syntax is text: its words are searched as words ("title" too), never as a query.
    const jazz = await list('search=jazz');
    expect(jazz).to.have.members([ids['Jazz Night'], ids['Jazz Night Encore']]);
    // The same matches; their relevance order may tie differently with other tests' records.
    for (const text of ['jazz (', '"jazz', 'jazz:*', 'jazz OR', '(jazz) AND'])
      expect(await list(`search=${encodeURIComponent(text)}`), text).to.have.members(jazz);
    expect(await list(`search=${encodeURIComponent('jazz AND (title:* OR "')}`)).to.deep.equal([]);
  });

  it("never matches a protected event's text and blanks it in lists for anonymous callers", async () => {
    expect(await list(`search=${word}pass`)).to.deep.equal([]);
    const [secret] = (await api.get(`/events?tags=${tag}&include=${ids['Secret Party']}`)).body.events;
    expect(secret).to.include({ title: 'Secret Party', description: '', excerpt: '', website: '' });
    expect(secret.venue).to.deep.equal([]);
    const [forEditor] = (await api.get(`/events?tags=${tag}&include=${ids['Secret Party']}`, { key: true })).body
      .events;
    expect(forEditor.description).to.include(`${word}pass`);
  });

  it('orders by title, modified and start date in either direction', async () => {
    expect(await list('orderby=title')).to.deep.equal([
      ids['Jazz Night'],
      ids['Jazz Night Encore'],
      ids['Poetry Reading'],
      ids['Rock Festival'],
      ids['Secret Party'],
    ]);
    expect(await list('order=desc')).to.deep.equal([...visible()].reverse());
    expect(await list('orderby=modified&order=asc')).to.deep.equal(visible());
    expect(await list('orderby=Title&order=DESC')).to.deep.equal((await list('orderby=title')).reverse());
    expect((await api.get('/events?orderby=nonsense')).status).to.equal(400);
  });

  it('combines filters', async () => {
    expect(await list(`search=jazz&venue=${venueParis}&featured=true&geoloc=true`)).to.deep.equal([ids['Jazz Night']]);
    expect(await list(`search=jazz&featured=false&post_parent=${ids['Jazz Night']}`)).to.deep.equal([
      ids['Jazz Night Encore'],
    ]);
    expect(await list(`categories=${category.slug}&organizer=${organizer2}`)).to.deep.equal([]);
  });

  it('serves each language: translations where they exist, stemming in that language', async () => {
    const fr = await request(
      'POST',
      `/fr${ROOT}/events/${ids['Rock Festival']}`,
      { title: 'Les chevaux du rock', description: 'Des guitares à la galerie' },
      { key: true },
    );
    expect(fr.status).to.equal(200);
    const de = await request(
      'POST',
      `/de${ROOT}/events/${ids['Poetry Reading']}`,
      { title: 'Lesung im Haus der Bücher für Kinder' },
      { key: true },
    );
    expect(de.status).to.equal(200);
    await settle();
    const french = await request('GET', `/fr${ROOT}/events?tags=${tag}&search=cheval`);
    expect(french.body.events.map((e: { id: number }) => e.id)).to.deep.equal([ids['Rock Festival']]);
    expect(french.body.events[0]).to.include({ title: 'Les chevaux du rock', i18n_language: 'fr' });
    const frenchAll = await request('GET', `/fr${ROOT}/events?tags=${tag}`);
    expect(frenchAll.body.events.map((e: { i18n_language: string }) => e.i18n_language)).to.deep.equal([
      'en',
      'fr',
      'en',
      'en',
      'en',
    ]);
    const german = await request('GET', `/de${ROOT}/events?tags=${tag}&search=buch%20hauser`);
    expect(german.body.events.map((e: { id: number }) => e.id)).to.deep.equal([ids['Poetry Reading']]);
    const englishStill = await list('search=cheval');
    expect(englishStill).to.deep.equal([]);
    expect(await listIds(`/events?tags=${tag}&search=chevaux&i18n_language=fr`)).to.deep.equal([ids['Rock Festival']]);
  });

  it('tolerates typos in words as written, not in their stems', async () => {
    // Written by the test before: French "galerie" (stem "gal"), German "Kinder" (stem "kind").
    const search = (lang: string, text: string) => listIds(`/events?tags=${tag}&search=${text}&i18n_language=${lang}`);
    expect(await search('fr', 'galerie')).to.deep.equal([ids['Rock Festival']]);
    expect(await search('fr', 'galrie'), 'one typo').to.deep.equal([ids['Rock Festival']]);
    expect(await search('fr', 'gap'), 'one edit from the stem only').to.deep.equal([]);
    expect(await search('de', 'kinder')).to.deep.equal([ids['Poetry Reading']]);
    expect(await search('de', 'kindr'), 'one typo').to.deep.equal([ids['Poetry Reading']]);
    expect(await search('de', 'kino'), 'one edit from the stem only').to.deep.equal([]);
    expect(await search('en', 'the'), 'a stop word alone is not every event').to.deep.equal([]);
    expect(await search('en', 'the%20jaz%20nihgt&orderby=start_date'), 'a stop word, two typos').to.deep.equal([
      ids['Jazz Night'],
      ids['Jazz Night Encore'],
    ]);
  });

  it('finds a word by its stem however far it is written from the text (family → families)', async () => {
    const description = 'Fun for all the families from nearby cities, with galleries open.';
    expect((await api.patch(`/events/${ids['Poetry Reading']}`, { description })).status).to.equal(200);
    await settle();
    for (const text of ['family', 'city%20gallery', 'families', 'the%20family'])
      expect(await list(`search=${text}`), text).to.deep.equal([ids['Poetry Reading']]);
  });
});
