import { expect } from 'chai';
import { api, request, ROOT, type ApiResponse } from '../support/api';
import { expectInvalid } from '../support/errors';
import { testWorld, whileWorkerStopped } from '../support/harness';
import { settle } from '../support/lists';

let counter = 0;
const unique = (name: string) => `${name} ${Date.now().toString(36)}${++counter}`;

async function created(path: string, body: Record<string, unknown>): Promise<any> {
  const res = await api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

const eventBody = (fields: Record<string, unknown> = {}) => ({
  title: unique('Linked Event'),
  start_date: '2025-09-01 19:00:00',
  end_date: '2025-09-01 21:00:00',
  ...fields,
});
const createEvent = (fields: Record<string, unknown> = {}) => created('/events', eventBody(fields));

function expectInvalidParam(res: ApiResponse, param: string, message?: RegExp): void {
  expectInvalid(res, param);
  if (message) expect(res.body.data.params[param]).to.match(message);
}

const ids = (records: { id: number }[]) => records.map((r) => r.id);

describe('events: venue links', () => {
  it('links a venue by ID and embeds the venue object as the venue routes show it', async () => {
    const venue = await created('/venues', {
      venue: unique('Blue Hall'),
      city: 'Lyon',
      address: '2 quai',
      geo_lat: 45.76,
      geo_lng: 4.83,
    });
    const event = await createEvent({ venue: venue.id });
    const read = await api.get(`/events/${event.id}`);
    expect(read.body.venue).to.deep.equal((await api.get(`/venues/${venue.id}`)).body);
    expect(read.body.show_map).to.equal(true);
    expect(read.body.json_ld.location).to.deep.equal({
      '@type': 'Place',
      name: venue.venue,
      url: venue.url,
      address: { '@type': 'PostalAddress', streetAddress: '2 quai', addressLocality: 'Lyon' },
      geo: { '@type': 'GeoCoordinates', latitude: 45.76, longitude: 4.83 },
    });
  });

  it('creates and links an inline venue object', async () => {
    const name = unique('Inline Hall');
    const event = await createEvent({ venue: { venue: name, city: 'Nantes', show_map: false } });
    expect(event.venue).to.include({ venue: name, city: 'Nantes', show_map: false, status: 'publish' });
    expect(event.show_map).to.equal(false);
    const stored = await api.get(`/venues/${event.venue.id}`);
    expect(stored.status).to.equal(200);
    expect(stored.body).to.deep.equal(event.venue);
  });

  it('creates an inline venue from a form body (venue[venue]=...)', async () => {
    const name = unique('Form Hall');
    const form = new URLSearchParams({
      title: unique('Form Linked'),
      start_date: '2025-09-01',
      end_date: '2025-09-02',
      'venue[venue]': name,
      'venue[zip]': '44000',
    });
    const res = await request('POST', `${ROOT}/events`, undefined, {
      key: true,
      raw: form,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status).to.equal(201);
    expect(res.body.venue).to.include({ venue: name, zip: '44000' });
  });

  it('links several venues as an array, from JSON or a comma list', async () => {
    const a = await created('/venues', { venue: unique('Venue A') });
    const b = await created('/venues', { venue: unique('Venue B') });
    const event = await createEvent({ venue: [a.id, b.id] });
    expect(ids(event.venue)).to.deep.equal([a.id, b.id]);
    const comma = await api.patch(`/events/${event.id}?venue=${b.id},${a.id}`, {});
    expect(ids(comma.body.venue)).to.deep.equal([b.id, a.id]);
  });

  it('clears the venue with 0, [] or null', async () => {
    const venue = await created('/venues', { venue: unique('Clear Hall') });
    for (const clear of [0, [], null, '']) {
      const event = await createEvent({ venue: venue.id });
      expect(event.venue.id).to.equal(venue.id);
      const res = await api.patch(`/events/${event.id}`, { venue: clear });
      expect(res.status).to.equal(200);
      expect(res.body.venue, JSON.stringify(clear)).to.deep.equal([]);
      expect(res.body.show_map).to.equal(false);
    }
  });

  it('rejects IDs that are not venues and inline venues without a name, naming venue', async () => {
    const organizer = await created('/organizers', { organizer: unique('Not A Venue') });
    const event = await createEvent();
    expectInvalidParam(await api.patch(`/events/${event.id}`, { venue: organizer.id }), 'venue', /is not a venue ID/);
    expectInvalidParam(await api.patch(`/events/${event.id}`, { venue: event.id }), 'venue');
    expectInvalidParam(await api.patch(`/events/${event.id}`, { venue: 99999999 }), 'venue');
    expectInvalidParam(await api.patch(`/events/${event.id}`, { venue: { city: 'Nowhere' } }), 'venue');
    expectInvalidParam(
      await api.patch(`/events/${event.id}`, { venue: { venue: 'x', website: 'javascript:x' } }),
      'venue',
    );
    expectInvalidParam(await api.patch(`/events/${event.id}`, { venue: -3 }), 'venue');
    expect((await api.get(`/events/${event.id}`)).body.venue).to.deep.equal([]);
  });

  it('names a field of an inline venue that breaks its own rules inside the parameter, creating nothing', async () => {
    const title = unique('Half Located');
    const first = unique('Fine Hall');
    const lone = await api.post(
      '/events',
      eventBody({ title, venue: [{ venue: first }, { venue: unique('Lat Only Hall'), geo_lat: 45.7 }] }),
    );
    expectInvalidParam(lone, 'venue', /^venue\[1\]\.geo_lng: geo_lat and geo_lng must be set/);
    expect(Object.keys(lone.body.data.params)).to.deep.equal(['venue']);
    const single = await api.post('/events', eventBody({ title, venue: { venue: first, geo_lng: 4.8 } }));
    expectInvalidParam(single, 'venue', /^venue\.geo_lat: /);
    expect(await testWorld().services.stores.venues.docs.countDocuments({ venue: first })).to.equal(0);
    expect(await testWorld().services.stores.events.docs.countDocuments({ title })).to.equal(0);
  });

  it('creates at most 10 venues and 10 organizers inline per write, with any number of IDs beside them', async () => {
    const title = unique('Crowded Bill');
    const name = unique('Inline Crowd');
    const inline = (n: number, field: string) => Array.from({ length: n }, (_, i) => ({ [field]: `${name} ${i}` }));
    const tooMany = await api.post('/events', eventBody({ title, organizer: inline(11, 'organizer') }));
    expectInvalidParam(tooMany, 'organizer', /^organizer may create at most 10 organizers inline/);
    expectInvalidParam(await api.post('/events', eventBody({ title, venue: inline(11, 'venue') })), 'venue');
    expect(await testWorld().services.stores.organizers.docs.countDocuments({ organizer: `${name} 0` })).to.equal(0);
    const known = await created('/organizers', { organizer: unique('Known Act') });
    const fine = await api.post(
      '/events',
      eventBody({ title, organizer: [known.id, ...inline(10, 'organizer')], venue: inline(10, 'venue') }),
    );
    expect(fine.status, JSON.stringify(fine.body)).to.equal(201);
    expect([fine.body.organizer.length, fine.body.venue.length]).to.deep.equal([11, 10]);
  });

  it('links a term named several times, in any case, once', async () => {
    const name = unique('Echo Tag');
    const event = await createEvent({ tags: [name, name.toUpperCase(), name.toLowerCase(), name] });
    expect(event.tags.map((t: { name: string }) => t.name)).to.deep.equal([name]);
    expect(await testWorld().services.stores.tags.docs.countDocuments({ name: new RegExp(`^${name}$`, 'i') })).to.equal(
      1,
    );
  });

  it('creates no category, tag or venue named in a write that a later check refuses', async () => {
    const category = unique('Orphan Category');
    const tag = unique('Orphan Tag');
    const venue = unique('Orphan Hall');
    const refusals = [
      { categories: [category], tags: [99_999_999] },
      { categories: [category], tags: [tag], venue: 99_999_999 },
      { categories: [category], tags: [tag], venue: { venue }, organizer: { phone: '1' } },
    ];
    for (const fields of refusals) {
      const res = await api.post('/events', eventBody(fields));
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
    }
    const { stores } = testWorld().services;
    expect(await stores.categories.docs.countDocuments({ name: category })).to.equal(0);
    expect(await stores.tags.docs.countDocuments({ name: tag })).to.equal(0);
    expect(await stores.venues.docs.countDocuments({ venue })).to.equal(0);
  });

  it('does not embed a trashed venue, and drops a permanently deleted one everywhere', async () => {
    const venue = await created('/venues', { venue: unique('Doomed Hall') });
    const event = await createEvent({ venue: venue.id });
    await api.delete(`/venues/${venue.id}`);
    expect((await api.get(`/events/${event.id}`)).body.venue).to.deep.equal([]);
    await api.delete(`/venues/${venue.id}?force=true`);
    const doc = await testWorld().services.db.collection('events').findOne({ id: event.id });
    expect(doc!.venues).to.deep.equal([]);
  });

  it('refuses to link a trashed venue or organizer, naming the parameter, and changes nothing', async () => {
    const venue = await created('/venues', { venue: unique('Trashed Hall') });
    const organizer = await created('/organizers', { organizer: unique('Trashed Org') });
    const kept = await created('/organizers', { organizer: unique('Kept Org') });
    const event = await createEvent({ organizer: [kept.id] });
    expect((await api.delete(`/venues/${venue.id}`)).status).to.equal(200);
    expect((await api.delete(`/organizers/${organizer.id}`)).status).to.equal(200);
    expectInvalidParam(
      await api.patch(`/events/${event.id}`, { venue: venue.id }),
      'venue',
      new RegExp(`^${venue.id} is a trashed venue: restore it before linking$`),
    );
    expectInvalidParam(
      await api.patch(`/events/${event.id}`, { organizer: [kept.id, organizer.id] }),
      'organizer',
      new RegExp(`^${organizer.id} is a trashed organizer: restore it before linking$`),
    );
    const read = (await api.get(`/events/${event.id}`)).body;
    expect(read.venue).to.deep.equal([]);
    expect(ids(read.organizer)).to.deep.equal([kept.id]);
    expect((await api.patch(`/venues/${venue.id}`, { status: 'publish' })).status).to.equal(200);
    expect(ids([(await api.patch(`/events/${event.id}`, { venue: venue.id })).body.venue])).to.deep.equal([venue.id]);
  });

  it('never matches a filter by a venue deleted under a link a racing create wrote, and drops that link', async () => {
    const venue = await created('/venues', { venue: unique('Raced Hall') });
    const event = await createEvent({
      venue: venue.id,
      start_date: '2030-04-01 19:00:00',
      end_date: '2030-04-01 21:00:00',
    });
    await settle();
    const listedAt = async () =>
      (await api.get(`/events?venue=${venue.id}&start_date=2030-03-31&end_date=2030-04-02`)).body.events.map(
        (e: { id: number }) => e.id,
      );
    expect(await listedAt()).to.deep.equal([event.id]);
    // What the race leaves: the venue deleted, the event's link written after the unlinking.
    const { venues } = testWorld().services.stores;
    await venues.remove((await venues.get(venue.id))!);
    await settle();
    expect(await listedAt()).to.deep.equal([]);
    expect((await api.get(`/events/${event.id}`)).body.venue).to.deep.equal([]);
    // The worker found the link to a record gone for good and removed it from storage.
    const stored = await testWorld().services.stores.events.get(event.id);
    expect(Object.values(stored!.docs).map((doc) => doc!.venues)).to.deep.equal([[]]);
  });
});

describe('events: organizer links', () => {
  it('links organizers by ID and inline objects, in order', async () => {
    const existing = await created('/organizers', {
      organizer: unique('Known Org'),
      email: 'known@org.example',
      phone: '123',
    });
    const name = unique('New Org');
    const event = await createEvent({ organizer: [existing.id, { organizer: name, website: 'https://new.example' }] });
    expect(event.organizer).to.have.length(2);
    expect(event.organizer[0]).to.deep.equal((await api.get(`/organizers/${existing.id}`)).body);
    expect(event.organizer[1]).to.include({ organizer: name, website: 'https://new.example' });
    expect((await api.get(`/organizers/${event.organizer[1].id}`)).body.organizer).to.equal(name);
    expect(event.json_ld.organizer).to.deep.equal([
      { '@type': 'Person', name: existing.organizer, telephone: '123', email: 'known@org.example', url: existing.url },
      { '@type': 'Person', name, url: 'https://new.example' },
    ]);
  });

  it('takes a single ID or a single inline object', async () => {
    const org = await created('/organizers', { organizer: unique('Solo Org') });
    expect(ids((await createEvent({ organizer: org.id })).organizer)).to.deep.equal([org.id]);
    expect(ids((await createEvent({ organizer: String(org.id) })).organizer)).to.deep.equal([org.id]);
    const inline = await createEvent({ organizer: { organizer: unique('Inline Solo') } });
    expect(inline.organizer).to.have.length(1);
  });

  it('clears organizers with [] (and 0 or null)', async () => {
    const org = await created('/organizers', { organizer: unique('Cleared Org') });
    for (const clear of [[], 0, null]) {
      const event = await createEvent({ organizer: [org.id] });
      const res = await api.put(`/events/${event.id}`, { organizer: clear });
      expect(res.body.organizer, JSON.stringify(clear)).to.deep.equal([]);
    }
  });

  it('rejects IDs that are not organizers, naming organizer', async () => {
    const venue = await created('/venues', { venue: unique('Not An Org') });
    const event = await createEvent();
    expectInvalidParam(
      await api.patch(`/events/${event.id}`, { organizer: [venue.id] }),
      'organizer',
      /is not an organizer ID/,
    );
    expectInvalidParam(
      await api.patch(`/events/${event.id}`, { organizer: [{ email: 'no-name@x.example' }] }),
      'organizer',
    );
    expectInvalidParam(await api.patch(`/events/${event.id}`, { organizer: 'abc' }), 'organizer');
  });

  it('names every bad parameter of a write at once, its dates, author and links alike', async () => {
    const res = await api.post('/events', {
      title: 'x',
      start_date: '2025-01-02',
      end_date: '2025-01-01',
      author: 987_654_321,
      venue: 99_999_999,
      organizer: [99_999_998],
      categories: [99_999_999],
      tags: [99_999_997],
    });
    expectInvalid(res, 'end_date', 'author', 'venue', 'organizer', 'categories', 'tags');
  });

  it('creates nothing when another part of the write is invalid', async () => {
    const name = unique('Never Created Org');
    const res = await api.post('/events', {
      title: 'x',
      start_date: '2025-01-02',
      end_date: '2025-01-01',
      organizer: [{ organizer: name }],
    });
    expect(res.status).to.equal(400);
    expect(await testWorld().services.db.collection('organizers').countDocuments({ organizer: name })).to.equal(0);
  });
});

describe('events: category and tag links', () => {
  it('links categories by ID, by slug and by name; an unknown name creates the category', async () => {
    const byId = await created('/categories', { name: unique('Cat By Id') });
    const bySlug = await created('/categories', { name: unique('Cat By Slug') });
    const byName = await created('/categories', { name: unique('Cat By Name') });
    const fresh = unique('Brand New Cat');
    const event = await createEvent({ categories: [byId.id, bySlug.slug, byName.name.toUpperCase(), fresh] });
    expect(event.categories.map((c: { id: number }) => c.id).slice(0, 3)).to.deep.equal([
      byId.id,
      bySlug.id,
      byName.id,
    ]);
    const made = event.categories[3];
    expect(made).to.include({ name: fresh, taxonomy: 'category', parent: 0, count: 1 });
    const read = await api.get(`/categories/${made.id}`);
    expect(read.status).to.equal(200);
    expect(read.body.name).to.equal(fresh);
    expect(event.categories[0]).to.deep.equal((await api.get(`/categories/${byId.id}`)).body);
  });

  it("embeds term counts that reflect another event's write at once, and the index's once it is synced", async () => {
    const category = await created('/categories', { name: unique('Counted Live') });
    const first = await createEvent({ categories: [category.id] });
    await settle();
    await whileWorkerStopped(async () => {
      await createEvent({ categories: [category.id] });
      // Reads by ID come from the database (CONTRACT 8): the index does not know the second event yet.
      const read = await api.get(`/events/${first.id}`);
      expect(read.body.categories.map((c: { count: number }) => c.count)).to.deep.equal([2]);
    });
    await settle();
    const settled = await api.get(`/events/${first.id}`);
    expect(settled.body.categories[0]).to.deep.equal((await api.get(`/categories/${category.id}`)).body);
  });

  it('links tags from a comma list and a single value; clears with []', async () => {
    const tag = await created('/tags', { name: unique('Known Tag') });
    const event = await createEvent({ tags: `${tag.id},${unique('comma-new')}` });
    expect(event.tags).to.have.length(2);
    expect(event.tags[0].id).to.equal(tag.id);
    expect(event.tags[1].taxonomy).to.equal('tag');
    const single = await api.patch(`/events/${event.id}`, { tags: tag.id });
    expect(ids(single.body.tags)).to.deep.equal([tag.id]);
    const cleared = await api.patch(`/events/${event.id}`, { tags: [], categories: [] });
    expect(cleared.body.tags).to.deep.equal([]);
    expect(cleared.body.categories).to.deep.equal([]);
    // Text in brackets is a JSON array, in a write as in a list filter (CONTRACT part 2).
    const bracketed = await api.patch(`/events/${event.id}`, { tags: `[${tag.id}]` });
    expect(ids(bracketed.body.tags)).to.deep.equal([tag.id]);
  });

  it('rejects unknown term IDs and a tag ID given as a category, naming the parameter', async () => {
    const tag = await created('/tags', { name: unique('Wrong Tax') });
    const event = await createEvent();
    expectInvalidParam(await api.patch(`/events/${event.id}`, { categories: [99999999] }), 'categories');
    expectInvalidParam(await api.patch(`/events/${event.id}`, { categories: [tag.id] }), 'categories', /tag ID/);
    expectInvalidParam(await api.patch(`/events/${event.id}`, { tags: [{ $ne: 1 }] }), 'tags');
  });

  it('drops a deleted term from the event', async () => {
    const cat = await created('/categories', { name: unique('Short Lived') });
    const event = await createEvent({ categories: [cat.id] });
    expect(ids(event.categories)).to.deep.equal([cat.id]);
    await api.delete(`/categories/${cat.id}`);
    expect((await api.get(`/events/${event.id}`)).body.categories).to.deep.equal([]);
  });
});

describe('events: post_parent', () => {
  it('links an existing parent event and clears it with 0, null or a form\'s ""', async () => {
    const parent = await createEvent();
    const child = await createEvent({ post_parent: parent.id });
    expect(child.post_parent).to.equal(parent.id);
    expect((await api.patch(`/events/${child.id}`, { post_parent: 0 })).body.post_parent).to.equal(0);
    await api.patch(`/events/${child.id}`, { post_parent: parent.id });
    expect((await api.patch(`/events/${child.id}`, { post_parent: null })).body.post_parent).to.equal(0);
    await api.patch(`/events/${child.id}`, { post_parent: parent.id });
    const form = { key: true, raw: 'post_parent=&author=', contentType: 'application/x-www-form-urlencoded' } as const;
    const cleared = await request('PATCH', `${ROOT}/events/${child.id}`, undefined, form);
    expect(cleared.status, JSON.stringify(cleared.body)).to.equal(200);
    expect(cleared.body).to.include({ post_parent: 0, author: 0 });
  });

  it('rejects a non-event, a missing event, itself and cycles, naming post_parent', async () => {
    const venue = await created('/venues', { venue: unique('Parent Venue') });
    const a = await createEvent();
    const b = await createEvent({ post_parent: a.id });
    const trashed = await createEvent();
    await api.delete(`/events/${trashed.id}`);
    const refusals: [unknown, string][] = [
      [venue.id, `${venue.id} is a venue ID, not an event ID`],
      [trashed.id, `${trashed.id} is a trashed event: restore it before linking`],
      [99999999, 'there is no event with ID 99999999'],
      [a.id, 'an event cannot be its own parent'],
      [b.id, `event ${b.id} is below event ${a.id} in the hierarchy: an event cannot become its own ancestor`],
    ];
    for (const [postParent, message] of refusals) {
      const res = await api.patch(`/events/${a.id}`, { post_parent: postParent });
      expectInvalid(res, 'post_parent');
      expect(res.body.data.params.post_parent).to.equal(message);
    }
    expectInvalidParam(await api.patch(`/events/${a.id}`, { post_parent: 'x' }), 'post_parent');
    expectInvalidParam(await api.post('/events', eventBody({ post_parent: venue.id })), 'post_parent', /not an event/);
  });

  it('lets a child be saved as read when its parent went to the trash', async () => {
    const parent = await createEvent();
    const child = await createEvent({ post_parent: parent.id });
    await api.delete(`/events/${parent.id}`);
    const read = (await api.get(`/events/${child.id}`)).body;
    expect(read.post_parent).to.equal(parent.id);
    const saved = await api.patch(`/events/${child.id}`, { title: 'Saved as read', post_parent: read.post_parent });
    expect(saved.status).to.equal(200);
    expect(saved.body).to.include({ title: 'Saved as read', post_parent: parent.id });
  });

  it('creates nothing it was asked to (inline venue, organizer, new terms) when the parent closes a cycle', async () => {
    const a = await createEvent();
    const b = await createEvent({ post_parent: a.id });
    const names = { venue: unique('Cycle Hall'), organizer: unique('Cycle Crew'), term: unique('Cycle Term') };
    const res = await api.patch(`/events/${a.id}`, {
      post_parent: b.id,
      venue: { venue: names.venue },
      organizer: { organizer: names.organizer },
      categories: [names.term],
      tags: [names.term],
    });
    expectInvalidParam(res, 'post_parent', /own ancestor/);
    const { services } = testWorld();
    expect(await services.stores.venues.docs.countDocuments({ venue: names.venue })).to.equal(0);
    expect(await services.stores.organizers.docs.countDocuments({ organizer: names.organizer })).to.equal(0);
    expect(await services.stores.categories.docs.countDocuments({ name: names.term })).to.equal(0);
    expect(await services.stores.tags.docs.countDocuments({ name: names.term })).to.equal(0);
    const read = (await api.get(`/events/${a.id}`)).body;
    expect([read.post_parent, read.venue, read.organizer, read.categories, read.tags]).to.deep.equal([
      0,
      [],
      [],
      [],
      [],
    ]);
  });

  it('resets children when the parent is deleted permanently', async () => {
    const parent = await createEvent();
    const child = await createEvent({ post_parent: parent.id });
    await api.delete(`/events/${parent.id}?force=true`);
    expect((await api.get(`/events/${child.id}`)).body.post_parent).to.equal(0);
  });
});
