import { expect } from 'chai';
import { api, ROOT } from '../support/api';
import { testWorld } from '../support/harness';
import { create, daysFromNow, searchReady, settle, unique } from '../support/lists';
import { TIMELY_VALIDATOR_MS } from '../../src/api/readValidator';

const revalidate = (path: string, etag: string, headers: Record<string, string> = {}) =>
  api.get(path, { headers: { 'If-None-Match': etag, ...headers } });

const varies = (headers: Headers) =>
  (headers.get('vary') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);

/** HTTP caching of reads (EXTENSIONS part 13): validators, 304s, Cache-Control, Vary. */
describe('HTTP caching: ETag, If-None-Match, Last-Modified, Cache-Control', () => {
  const tag = unique('cachetag');
  let venue: { id: number };
  let category: { id: number };
  let event: { id: number; slug: string };

  before(async function () {
    this.timeout(60_000);
    await searchReady();
    venue = await create('/venues', { venue: 'Cache Hall', city: 'Lyon' });
    category = await create('/categories', { name: unique('Cachecat') });
    event = await create('/events', {
      title: 'Cached concert',
      start_date: daysFromNow(5),
      end_date: daysFromNow(5, '22:00:00'),
      venue: venue.id,
      categories: [category.id],
      tags: [tag],
    });
    await settle();
  });

  it('gives a single read a weak ETag, public no-cache and Vary, and 304s a revalidation without a body', async () => {
    const first = await api.get(`/events/${event.id}`);
    expect(first.status).to.equal(200);
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^W\/"[\w-]+"$/);
    expect(first.headers.get('cache-control')).to.equal('public, no-cache');
    expect(varies(first.headers)).to.include.members(['accept-encoding', 'authorization', 'accept']);
    const again = await revalidate(`/events/${event.id}`, etag);
    expect(again.status).to.equal(304);
    expect(again.body).to.equal(undefined);
    expect(again.headers.get('etag')).to.equal(etag);
    expect(again.headers.get('cache-control')).to.equal('public, no-cache');
    // Any of several tags, or `*`, matches too (RFC 9110 13.1.2).
    expect((await revalidate(`/events/${event.id}`, `W/"other", ${etag}`)).status).to.equal(304);
    expect((await revalidate(`/events/${event.id}`, '*')).status).to.equal(304);
    expect((await revalidate(`/events/${event.id}`, 'W/"other"')).status).to.equal(200);
  });

  it('changes a single read’s validator at once with the record, its venue, and its terms’ counts', async () => {
    const path = `/events/${event.id}`;
    let etag = (await api.get(path)).headers.get('etag')!;
    const changed = async (write: () => Promise<unknown>) => {
      await write();
      const res = await revalidate(path, etag);
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.not.equal(etag);
      etag = res.headers.get('etag')!;
      return res.body;
    };
    expect((await changed(() => api.patch(path, { title: 'Cached concert, moved' }))).title).to.equal(
      'Cached concert, moved',
    );
    expect((await changed(() => api.patch(`/venues/${venue.id}`, { venue: 'Cache Hall II' }))).venue.venue).to.equal(
      'Cache Hall II',
    );
    const counted = await changed(() =>
      create('/events', {
        title: 'Another in the category',
        start_date: daysFromNow(6),
        end_date: daysFromNow(6, '22:00:00'),
        categories: [category.id],
      }),
    );
    expect(counted.categories[0].count).to.equal(2);
    // The worker marks the term again once it indexes the new count: one more 200 at most, then 304s.
    await settle();
    const settled = await api.get(path);
    expect(settled.body.categories[0].count).to.equal(2);
    expect((await revalidate(path, settled.headers.get('etag')!)).status).to.equal(304);
  });

  it('answers If-Modified-Since on single reads by ID and by slug, and prefers If-None-Match', async () => {
    const created = await create('/venues', { venue: unique('Dated venue') });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (const path of [`/venues/${created.id}`, `/venues/by-slug/${created.slug}`]) {
      const first = await api.get(path);
      const lastModified = first.headers.get('last-modified')!;
      expect(new Date(lastModified).getTime(), path).to.be.closeTo(Date.parse(created.modified_utc + 'Z'), 1000);
      expect((await api.get(path, { headers: { 'If-Modified-Since': lastModified } })).status, path).to.equal(304);
      const earlier = new Date(Date.parse(lastModified) - 5000).toUTCString();
      expect((await api.get(path, { headers: { 'If-Modified-Since': earlier } })).status, path).to.equal(200);
      const both = { 'If-Modified-Since': lastModified, 'If-None-Match': 'W/"stale"' };
      expect((await api.get(path, { headers: both })).status, path).to.equal(200);
      expect((await revalidate(path, first.headers.get('etag')!)).status, path).to.equal(304);
    }
  });

  it('gives a series read, whose next occurrences change with the time, a validator of the minute', async () => {
    const series = await create('/events', {
      title: unique('Cached series'),
      start_date: daysFromNow(1, '10:00:00'),
      end_date: daysFromNow(1, '11:00:00'),
      recurrence: ['RRULE:FREQ=DAILY;COUNT=30'],
    });
    const path = `/events/${series.id}`;
    const realNow = Date.now;
    // Read and revalidated within the next minute (the API runs in this process), then a minute on.
    const minute = (Math.floor(realNow() / TIMELY_VALIDATOR_MS) + 1) * TIMELY_VALIDATOR_MS;
    Date.now = () => minute + 1_000;
    try {
      const first = await api.get(path);
      expect(first.body.next_occurrences).to.have.length(10);
      const etag = first.headers.get('etag')!;
      const lastModified = first.headers.get('last-modified')!;
      expect(Date.parse(lastModified)).to.equal(minute);
      expect((await revalidate(path, etag)).status).to.equal(304);
      Date.now = () => minute + TIMELY_VALIDATOR_MS + 1_000;
      const later = await revalidate(path, etag);
      expect(later.status).to.equal(200);
      expect(later.headers.get('etag')).to.not.equal(etag);
      expect((await api.get(path, { headers: { 'If-Modified-Since': lastModified } })).status).to.equal(200);
    } finally {
      Date.now = realNow;
    }
  });

  it('keeps what a key unlocked private, with its own validator', async () => {
    const anonymous = await api.get(`/events/${event.id}`);
    const keyed = await api.get(`/events/${event.id}`, { key: true });
    expect(keyed.headers.get('cache-control')).to.equal('private, no-store');
    expect(keyed.headers.get('etag')).to.match(/^W\//).and.not.equal(anonymous.headers.get('etag'));
    expect(
      (await revalidate(`/events/${event.id}`, keyed.headers.get('etag')!, { Authorization: `Bearer x` })).status,
    ).to.equal(401);
  });

  it('304s a list page until what it lists changes, then shows the change at once', async () => {
    const path = `/events?tags=${tag}&per_page=50`;
    const first = await api.get(path);
    expect(first.status).to.equal(200);
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^W\//);
    expect(first.headers.get('cache-control')).to.equal('public, no-cache');
    const again = await revalidate(path, etag);
    expect(again.status).to.equal(304);
    expect(again.body).to.equal(undefined);
    const added = await api.post(
      '/events',
      { title: 'Late addition', start_date: daysFromNow(7), end_date: daysFromNow(7, '21:00:00'), tags: [tag] },
      { key: true, headers: { Prefer: 'wait-for-index' } },
    );
    expect(added.status).to.equal(201);
    const after = await revalidate(path, etag);
    expect(after.status).to.equal(200);
    expect(after.body.events.map((e: { id: number }) => e.id)).to.include(added.body.id);
    expect((await revalidate(path, after.headers.get('etag')!)).status).to.equal(304);
    // Another page, parameter or language is another answer.
    expect((await revalidate(`${path}&order=desc`, after.headers.get('etag')!)).status).to.equal(200);
  });

  it('304s the lists of other kinds, the namespace index and /doc', async () => {
    for (const path of [`/venues?search=Cache`, `/categories?include=${category.id}`, '', '/doc']) {
      const first = await api.get(path);
      expect(first.status, path).to.equal(200);
      const etag = first.headers.get('etag');
      expect(etag, path).to.match(/^W\//);
      expect((await revalidate(path, etag!)).status, path).to.equal(304);
    }
  });

  it('answers HEAD with the validators and no body, and 304 to a conditional HEAD', async () => {
    const url = `${testWorld().baseUrl}${ROOT}/events/${event.id}`;
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    const etag = head.headers.get('etag')!;
    expect(etag).to.equal((await api.get(`/events/${event.id}`)).headers.get('etag'));
    expect(await head.text()).to.equal('');
    const conditional = await fetch(url, { method: 'HEAD', headers: { 'If-None-Match': etag } });
    expect(conditional.status).to.equal(304);
  });

  it('sends no validators with errors', async () => {
    const missing = await api.get('/events/999999999');
    expect(missing.status).to.equal(404);
    expect(missing.headers.get('etag')).to.equal(null);
    expect(missing.headers.get('cache-control')).to.equal(null);
  });
});
