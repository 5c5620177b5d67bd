import { expect } from 'chai';
import { DateTime } from 'luxon';
import { api, request, ROOT, type ApiResponse } from '../support/api';
import { expectInvalid, expectMissing } from '../support/errors';
import { testWorld } from '../support/harness';
import { callers } from '../support/access';
import { createTerm } from '../support/terms';

/** The configured public address (PUBLIC_API_URL) records' URLs start with. */
const apiUrl = () => testWorld().config.apiUrl;

const SITE = 'http://calendar.test';
const EMPTY_COST = { cost: '', cost_details: { currency_symbol: '', currency_position: 'prefix', values: [] } };

let counter = 0;
/** A unique title, so slugs never collide across tests. */
const unique = (title: string) => `${title} ${Date.now().toString(36)}${++counter}`;

async function createEvent(fields: Record<string, unknown> = {}): Promise<ApiResponse> {
  const res = await api.post('/events', {
    title: unique('Event'),
    start_date: '2025-07-14 20:00:00',
    end_date: '2025-07-14 23:00:00',
    ...fields,
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res;
}

const details = (date: string) => {
  const [day, time] = date.split(' ') as [string, string];
  const [year, month, dd] = day.split('-');
  const [hour, minutes, seconds] = time.split(':');
  return { year, month, day: dd, hour, minutes, seconds };
};

describe('events: create, read, update, delete', () => {
  it('creates an event: 201, Location, every field of the API event with its defaults', async () => {
    const title = unique('Summer Concert');
    const res = await api.post('/events', {
      title,
      start_date: '2025-07-14 20:00:00',
      end_date: '2025-07-14 23:00:00',
    });
    expect(res.status).to.equal(201);
    const { id, slug, date, date_utc, modified, modified_utc, author } = res.body;
    expect(id).to.be.a('number');
    expect(res.headers.get('location')).to.equal(`${apiUrl()}${ROOT}/events/${id}`);
    expect(slug).to.equal(title.toLowerCase().replace(/ /g, '-'));
    expect(author).to.be.a('number').above(0);
    expect(date).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const url = `${SITE}/event/${slug}/`;
    const ld = res.body.json_ld;
    expect(res.body).to.deep.equal({
      id,
      status: 'publish',
      date,
      date_utc,
      modified,
      modified_utc,
      slug,
      url,
      rest_url: `${apiUrl()}${ROOT}/events/${id}`,
      author,
      i18n_language: 'en',
      translations: { en: `${apiUrl()}/en${ROOT}/events/${id}` },
      global_id: `calendar.test?id=${id}`,
      global_id_lineage: [`calendar.test?id=${id}`],
      title,
      description: null,
      excerpt: null,
      image: false,
      all_day: false,
      start_date: '2025-07-14 20:00:00',
      start_date_details: details('2025-07-14 20:00:00'),
      end_date: '2025-07-14 23:00:00',
      end_date_details: details('2025-07-14 23:00:00'),
      utc_start_date: '2025-07-14 20:00:00',
      utc_start_date_details: details('2025-07-14 20:00:00'),
      utc_end_date: '2025-07-14 23:00:00',
      utc_end_date_details: details('2025-07-14 23:00:00'),
      timezone: testWorld().config.defaultTimezone,
      timezone_abbr: 'UTC',
      ...EMPTY_COST,
      website: url,
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      ticketed: false,
      post_parent: 0,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
      json_ld: ld,
    });
    expect(ld).to.deep.equal({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: title,
      url,
      eventStatus: 'https://schema.org/EventScheduled',
      startDate: '2025-07-14T20:00:00Z',
      endDate: '2025-07-14T23:00:00Z',
    });
  });

  it('reads an event by ID and by slug, anonymously, exactly as created', async () => {
    const created = (await createEvent({ description: '<p>Hello</p>' })).body;
    const byId = await api.get(`/events/${created.id}`);
    expect(byId.status).to.equal(200);
    expect(byId.body).to.deep.equal(created);
    const bySlug = await api.get(`/events/by-slug/${created.slug}`);
    expect(bySlug.status).to.equal(200);
    expect(bySlug.body).to.deep.equal(created);
  });

  it('requires title, start_date and end_date on create, naming each', async () => {
    expectMissing(await api.post('/events', {}), ['title', 'start_date', 'end_date']);
    expectMissing(await api.post('/events', { title: 'x', start_date: 'soon' }), ['end_date'], 'start_date');
    expectInvalid(await api.post('/events', { title: '', start_date: '2025-01-01', end_date: '2025-01-01' }), 'title');
  });

  it('needs a key to write: 401 rest_unauthorized', async () => {
    const res = await api.post('/events', { title: 'x', start_date: 'now', end_date: 'now' }, {});
    expect(res.status).to.equal(401);
    expect(res.body.code).to.equal('rest_unauthorized');
  });

  for (const method of ['post', 'put', 'patch'] as const) {
    it(`updates by ID with ${method.toUpperCase()}, merging only the fields sent`, async () => {
      const created = (await createEvent({ excerpt: 'Keep me', featured: true })).body;
      const res = await api[method](`/events/${created.id}`, { title: 'Renamed', sticky: 'yes' });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        ...created,
        title: 'Renamed',
        sticky: true,
        modified: res.body.modified,
        modified_utc: res.body.modified_utc,
        json_ld: { ...created.json_ld, name: 'Renamed' },
      });
      expect(res.body.excerpt).to.equal('Keep me');
      expect(res.body.featured).to.equal(true);
      expect((await api.get(`/events/${created.id}`)).body.title).to.equal('Renamed');
    });

    it(`updates by slug with ${method.toUpperCase()}, and may change the slug`, async () => {
      const created = (await createEvent()).body;
      const newSlug = unique('moved slug').replace(/ /g, '-');
      const res = await api[method](`/events/by-slug/${created.slug}`, { slug: newSlug, cost: 5 });
      expect(res.status).to.equal(200);
      expect(res.body.id).to.equal(created.id);
      expect(res.body.slug).to.equal(newSlug);
      expect(res.body.url).to.equal(`${SITE}/event/${newSlug}/`);
      expect(res.body.cost).to.equal('5');
      const old = await api.get(`/events/by-slug/${created.slug}`);
      expect(old.status).to.equal(404);
      expect(old.body.code).to.equal('rest-event-not-found');
      expect((await api.get(`/events/by-slug/${newSlug}`)).body.id).to.equal(created.id);
    });
  }

  it('cannot clear required fields on update', async () => {
    const { id } = (await createEvent()).body;
    expectInvalid(
      await api.patch(`/events/${id}`, { title: '', start_date: null, end_date: '' }),
      'title',
      'start_date',
      'end_date',
    );
  });

  it('trashes on DELETE by ID, 410 when already trashed, removes with force=true', async () => {
    const created = (await createEvent()).body;
    const trashed = await api.delete(`/events/${created.id}`);
    expect(trashed.status).to.equal(200);
    expect(trashed.body).to.deep.include({ id: created.id, status: 'trash', title: created.title });
    const again = await api.delete(`/events/${created.id}`);
    expect(again.status).to.equal(410);
    expect(again.body).to.deep.equal({
      code: 'event-is-in-trash',
      message: `The event with ID ${created.id} is already in the trash.`,
      data: { status: 410 },
    });
    const anonymous = await api.get(`/events/${created.id}`);
    expect(anonymous.status).to.equal(403);
    expect(anonymous.body.code).to.equal('event-no-longer-available');
    const forced = await api.delete(`/events/${created.id}?force=true`);
    expect(forced.status).to.equal(200);
    expect(forced.body).to.deep.equal({ id: created.id, deleted: true });
    const gone = await api.get(`/events/${created.id}`);
    expect(gone.status).to.equal(404);
    expect(gone.body.code).to.equal('rest-event-not-found');
    expect(await testWorld().services.db.collection('events').countDocuments({ id: created.id })).to.equal(0);
  });

  it('trashes and force-deletes by slug', async () => {
    const created = (await createEvent()).body;
    const trashed = await api.delete(`/events/by-slug/${created.slug}`);
    expect(trashed.status).to.equal(200);
    expect(trashed.body.status).to.equal('trash');
    const forced = await api.delete(`/events/by-slug/${created.slug}?force=1`);
    expect(forced.status).to.equal(200);
    expect(forced.body).to.deep.equal({ id: created.id, deleted: true });
    expect((await api.get(`/events/by-slug/${created.slug}`)).status).to.equal(404);
  });

  it('answers 404 rest-event-not-found for unknown IDs and slugs, on every method', async () => {
    for (const res of [
      await api.get('/events/99999999'),
      // Digits no record can have: 0, leading zeros, past the safe integers (CONTRACT 1, 4).
      await api.get('/events/0'),
      await api.get('/events/000'),
      await api.get('/events/99999999999999999999999'),
      await api.patch('/events/0', { title: 'x' }),
      await api.patch('/events/99999999', { title: 'x' }),
      await api.delete('/events/99999999'),
      await api.get('/events/by-slug/no-such-event-anywhere'),
    ]) {
      expect(res.status).to.equal(404);
      expect(res.body.code).to.equal('rest-event-not-found');
      expect(res.body.data).to.deep.equal({ status: 404 });
    }
  });

  it('answers 400 rest-invalid-event-id for the ID of a venue or an organizer', async () => {
    const venue = await api.post('/venues', { venue: unique('Wrong Kind Hall') });
    const organizer = await api.post('/organizers', { organizer: unique('Wrong Kind Org') });
    for (const id of [venue.body.id, organizer.body.id]) {
      for (const res of [
        await api.get(`/events/${id}`),
        await api.put(`/events/${id}`, { title: 'x' }),
        await api.delete(`/events/${id}`),
      ]) {
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal({
          code: 'rest-invalid-event-id',
          message: `${id} is not a valid event ID.`,
          data: { params: { id: `${id} is not an event` }, status: 400 },
        });
      }
    }
  });

  it('answers rest_no_route for non-digit IDs and 405 for unsupported methods', async () => {
    const res = await api.get('/events/abc');
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('rest_no_route');
    const put = await api.put('/events', { title: 'x' });
    expect(put.status).to.equal(405);
    expect(put.headers.get('allow')).to.include('POST');
  });
});

describe('events: fields', () => {
  it('gives a link that opens another window rel="noopener", keeping its other rel values', async () => {
    const res = await createEvent({
      description:
        '<a href="https://a.example" target="_blank">a</a> <a href="https://b.example" target="_blank" rel="nofollow">b</a> <a href="https://c.example">c</a>',
    });
    expect(res.body.description).to.equal(
      '<a href="https://a.example" target="_blank" rel="noopener">a</a> <a href="https://b.example" target="_blank" rel="nofollow noopener">b</a> <a href="https://c.example">c</a>',
    );
    // What is returned is accepted unchanged when sent back.
    const again = await api.patch(`/events/${res.body.id}`, { description: res.body.description });
    expect(again.body.description).to.equal(res.body.description);
  });

  it('sanitises description and excerpt (no script, handlers or javascript: URLs)', async () => {
    const res = await createEvent({
      description:
        '<p onclick="steal()">Hi <a href="javascript:alert(1)">x</a> <a href="https://ok.example">ok</a></p><script>alert(1)</script><em>!</em>',
      excerpt: '<img src=x onerror="alert(1)"><strong>Short</strong>',
    });
    expect(res.body.description).to.equal('<p>Hi <a>x</a> <a href="https://ok.example">ok</a></p><em>!</em>');
    expect(res.body.excerpt).to.equal('<strong>Short</strong>');
    // The paragraph ends before the emphasis: a reader sees them on separate lines.
    expect(res.body.json_ld.description).to.equal('Hi x ok !');
    const cleared = await api.patch(`/events/${res.body.id}`, { description: '', excerpt: null });
    expect(cleared.body.description).to.equal(null);
    expect(cleared.body.excerpt).to.equal(null);
  });

  it('accepts every status and rejects others', async () => {
    for (const status of ['draft', 'pending', 'private', 'future', 'publish']) {
      expect((await createEvent({ status })).body.status).to.equal(status);
    }
    expectInvalid(
      await api.post('/events', { title: 'x', start_date: 'now', end_date: 'now', status: 'trash' }),
      'status',
    );
    expectInvalid(
      await api.post('/events', { title: 'x', start_date: 'now', end_date: 'now', status: 'bogus' }),
      'status',
    );
  });

  it('takes author, date and date_utc', async () => {
    const author = (await callers()).stranger.userId;
    const res = await createEvent({ author, date: '2024-01-02 03:04:05' });
    expect(res.body).to.deep.include({ author, date: '2024-01-02 03:04:05', date_utc: '2024-01-02 03:04:05' });
    const utc = await api.patch(`/events/${res.body.id}`, { date_utc: '2024-02-03T04:05:06Z' });
    expect(utc.body).to.deep.include({ date_utc: '2024-02-03 04:05:06' });
    expectInvalid(
      await api.patch(`/events/${res.body.id}`, { author: -1, date: 'someday', date_utc: 'x' }),
      'author',
      'date',
      'date_utc',
    );
  });

  it('takes a slug, folded to lower case without accents', async () => {
    const stamp = Date.now().toString(36);
    const res = await createEvent({ slug: `Fête Été ${stamp}` });
    expect(res.body.slug).to.equal(`fete-ete-${stamp}`);
    const regenerated = await api.patch(`/events/${res.body.id}`, { title: `Nouveau Titre ${stamp}`, slug: '' });
    expect(regenerated.body.slug).to.equal(`nouveau-titre-${stamp}`);
  });

  it('takes an image URL and rejects IDs and other schemes', async () => {
    const res = await createEvent({ image: 'https://img.example/poster.PNG' });
    expect(res.body.image).to.deep.equal({
      url: 'https://img.example/poster.PNG',
      id: 0,
      extension: 'png',
      width: null,
      height: null,
    });
    expect(res.body.json_ld.image).to.equal('https://img.example/poster.PNG');
    expectInvalid(await api.patch(`/events/${res.body.id}`, { image: 12 }), 'image');
    expectInvalid(await api.patch(`/events/${res.body.id}`, { image: '12' }), 'image');
    expectInvalid(await api.patch(`/events/${res.body.id}`, { image: 'ftp://img.example/a.png' }), 'image');
    expect((await api.patch(`/events/${res.body.id}`, { image: '' })).body.image).to.equal(false);
  });

  it('takes a website URL, falling back to the event page', async () => {
    const res = await createEvent({ website: 'https://jazz.example/tickets' });
    expect(res.body.website).to.equal('https://jazz.example/tickets');
    expectInvalid(await api.patch(`/events/${res.body.id}`, { website: 'javascript:alert(1)' }), 'website');
    const cleared = await api.patch(`/events/${res.body.id}`, { website: '' });
    expect(cleared.body.website).to.equal(cleared.body.url);
  });

  it('reads URLs as browsers do: any-case scheme and international addresses, stored as URIs', async () => {
    const stored: [string, string][] = [
      ['HTTPS://JAZZ.EXAMPLE/Tickets', 'HTTPS://JAZZ.EXAMPLE/Tickets'],
      ['https://bücher.example/', 'https://xn--bcher-kva.example/'],
      ['https://jazz.example/café?q=ü', 'https://jazz.example/caf%C3%A9?q=%C3%BC'],
      ['https://jazz.example/<b>', 'https://jazz.example/%3Cb%3E'],
    ];
    const res = await createEvent({ website: 'https://jazz.example/' });
    for (const [sent, kept] of stored) {
      const updated = await api.patch(`/events/${res.body.id}`, { website: sent, image: sent });
      expect(updated.status, sent).to.equal(200);
      expect([updated.body.website, updated.body.image.url], sent).to.deep.equal([kept, kept]);
    }
    for (const refused of [
      'http:jazz.example',
      'https:\\\\jazz.example',
      'https://jazz example.org',
      'https://',
      'https://x.org/%zz',
    ]) {
      expectInvalid(
        await api.patch(`/events/${res.body.id}`, { website: refused, image: refused }),
        'website',
        'image',
      );
    }
    expect((await api.get(`/events/${res.body.id}`)).body.website).to.equal(stored.at(-1)![1]);
  });

  it('takes the boolean flags in every form and rejects others', async () => {
    const res = await createEvent({
      hide_from_listings: 'yes',
      sticky: 1,
      featured: 'TRUE',
      ticketed: 'on',
      show_map: 'false',
      show_map_link: '0',
    });
    expect(res.body).to.deep.include({
      hide_from_listings: true,
      sticky: true,
      featured: true,
      ticketed: true,
      show_map: false,
      show_map_link: false,
    });
    const cleared = await api.patch(`/events/${res.body.id}`, { sticky: null, featured: 'off', show_map: true });
    expect(cleared.body).to.deep.include({
      hide_from_listings: true,
      sticky: false,
      featured: false,
      ticketed: true,
      show_map: true,
    });
    expectInvalid(
      await api.patch(`/events/${res.body.id}`, {
        hide_from_listings: 'maybe',
        sticky: 2,
        featured: {},
        ticketed: 'x',
        show_map: 'y',
        show_map_link: [],
        all_day: 'z',
      }),
      'hide_from_listings',
      'sticky',
      'featured',
      'ticketed',
      'show_map',
      'show_map_link',
      'all_day',
    );
  });

  it('parses the cost into cost and cost_details', async () => {
    const cases: [unknown, unknown][] = [
      ['$10', { cost: '$10', cost_details: { currency_symbol: '$', currency_position: 'prefix', values: ['10'] } }],
      ['10 €', { cost: '10 €', cost_details: { currency_symbol: '€', currency_position: 'postfix', values: ['10'] } }],
      ['Free', { cost: 'Free', cost_details: { currency_symbol: '', currency_position: 'prefix', values: ['0'] } }],
      [
        '10 - 20 USD',
        {
          cost: '10 - 20 USD',
          cost_details: { currency_symbol: 'USD', currency_position: 'postfix', values: ['10', '20'] },
        },
      ],
      [
        '5,50 €',
        { cost: '5,50 €', cost_details: { currency_symbol: '€', currency_position: 'postfix', values: ['5.50'] } },
      ],
      [12.5, { cost: '12.5', cost_details: { currency_symbol: '', currency_position: 'prefix', values: ['12.5'] } }],
      [
        '12.50',
        { cost: '12.50', cost_details: { currency_symbol: '', currency_position: 'prefix', values: ['12.50'] } },
      ],
      [
        'R$ 1.000',
        { cost: 'R$ 1.000', cost_details: { currency_symbol: 'R$', currency_position: 'prefix', values: ['1000'] } },
      ],
      [0, { cost: 'Free', cost_details: { currency_symbol: '', currency_position: 'prefix', values: ['0'] } }],
      // A number is a decimal, whatever its digits (three decimals are no thousands group).
      [
        12.345,
        { cost: '12.345', cost_details: { currency_symbol: '', currency_position: 'prefix', values: ['12.345'] } },
      ],
      [
        1e-7,
        {
          cost: '0.0000001',
          cost_details: { currency_symbol: '', currency_position: 'prefix', values: ['0.0000001'] },
        },
      ],
    ];
    for (const [cost, expected] of cases) {
      const res = await createEvent({ cost });
      expect({ cost: res.body.cost, cost_details: res.body.cost_details }, String(cost)).to.deep.equal(expected);
    }
    const priced = await createEvent({ cost: '$10' });
    expect(priced.body.json_ld.offers).to.deep.equal([
      { '@type': 'Offer', price: '10', priceCurrency: 'USD', url: priced.body.url },
    ]);
    const real = await api.patch(`/events/${priced.body.id}`, { cost: 'R$ 50' });
    expect(real.body.json_ld.offers).to.deep.equal([
      { '@type': 'Offer', price: '50', priceCurrency: 'BRL', url: priced.body.url },
    ]);
    const cleared = await api.patch(`/events/${priced.body.id}`, { cost: '' });
    expect({ cost: cleared.body.cost, cost_details: cleared.body.cost_details }).to.deep.equal(EMPTY_COST);
    expect(cleared.body.json_ld).to.not.have.property('offers');
    expectInvalid(await api.patch(`/events/${priced.body.id}`, { cost: { amount: 5 } }), 'cost');
    expectInvalid(await api.patch(`/events/${priced.body.id}`, { cost: true }), 'cost');
    for (const negative of [-5, '-5', '$-5', 'USD -5', '− 5 €']) {
      const refused = await api.patch(`/events/${priced.body.id}`, { cost: negative });
      expectInvalid(refused, 'cost');
      expect(refused.body.data.params.cost, String(negative)).to.match(/cannot be negative|greater than or equal to 0/);
    }
    expect(
      (await api.patch(`/events/${priced.body.id}`, { cost: '10 - 20 €' })).body.cost_details.values,
    ).to.deep.equal(['10', '20']);
  });

  it('ignores derived values a client sends', async () => {
    const res = await createEvent({
      url: 'https://evil.example',
      rest_url: 'x',
      utc_start_date: '1999-01-01 00:00:00',
      start_date_details: { year: '1999' },
      timezone_abbr: 'XYZ',
      cost_details: { values: ['1'] },
      count: 9,
      global_id: 'x',
      passwordHash: 'abc:def',
    });
    expect(res.body.url).to.equal(`${SITE}/event/${res.body.slug}/`);
    expect(res.body.utc_start_date).to.equal('2025-07-14 20:00:00');
    expect(res.body.timezone_abbr).to.equal('UTC');
    expect(res.body.cost_details.values).to.deep.equal([]);
    expect(res.body.global_id).to.equal(`calendar.test?id=${res.body.id}`);
    const docs = await testWorld().services.db.collection('events').find({ id: res.body.id }).toArray();
    expect(docs[0]).to.include({ passwordHash: null });
    expect(docs[0]).to.not.have.property('url');
  });

  it('rejects operator objects where scalars belong, in JSON and in the query string', async () => {
    expectInvalid(
      await api.post('/events', { title: { $ne: '' }, start_date: { $gt: '' }, end_date: '2025-01-01' }),
      'title',
      'start_date',
    );
    const query = await request(
      'POST',
      `${ROOT}/events?title[$ne]=x&start_date=2025-01-01&end_date=2025-01-01`,
      undefined,
      { key: true },
    );
    expectInvalid(query, 'title');
    const { id } = (await createEvent()).body;
    expectInvalid(await api.patch(`/events/${id}`, { timezone: { $regex: '.*' }, slug: ['a'] }), 'timezone', 'slug');
  });
});

describe('events: dates and time zones', () => {
  it('accepts every date form', async () => {
    const cases: [string | number, string][] = [
      ['2025-07-14 20:00:00', '2025-07-14 20:00:00'],
      ['2025-07-14 20:00', '2025-07-14 20:00:00'],
      ['2025-07-14', '2025-07-14 00:00:00'],
      ['2025-07-14T20:00:00', '2025-07-14 20:00:00'],
      ['2025-07-14T20:00:00+02:00', '2025-07-14 18:00:00'],
      ['2025-07-14T20:00:00Z', '2025-07-14 20:00:00'],
      ['1752523200', '2025-07-14 20:00:00'],
      // A JSON client sends a unix timestamp as a number.
      [1752523200, '2025-07-14 20:00:00'],
    ];
    for (const [input, shown] of cases) {
      const res = await createEvent({ start_date: input, end_date: '2030-01-01 00:00:00' });
      expect(res.body.start_date, String(input)).to.equal(shown);
      expect(res.body.start_date_details, String(input)).to.deep.equal(details(shown));
    }
    expectInvalid(await api.post('/events', { title: 'x', start_date: 1.5, end_date: '2030-01-01' }), 'start_date');
  });

  it('accepts relative dates: now, tomorrow, +2 days', async () => {
    const before = DateTime.utc().set({ millisecond: 0 });
    const res = await createEvent({ start_date: 'now', end_date: '+2 days' });
    const start = DateTime.fromFormat(res.body.utc_start_date, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' });
    const end = DateTime.fromFormat(res.body.utc_end_date, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' });
    expect(start >= before.minus({ seconds: 1 }) && start <= before.plus({ seconds: 10 })).to.equal(true);
    expect(end.diff(start, 'hours').hours).to.equal(48);
    const tomorrow = await createEvent({ start_date: 'tomorrow', end_date: 'tomorrow' });
    expect(tomorrow.body.start_date).to.equal(`${DateTime.utc().plus({ days: 1 }).toFormat('yyyy-MM-dd')} 00:00:00`);
  });

  it('rejects dates it cannot read, naming the parameter', async () => {
    expectInvalid(
      await api.post('/events', { title: 'x', start_date: 'next friday', end_date: '2025-13-45' }),
      'start_date',
      'end_date',
    );
  });

  it('rejects an end before the start, on create and on update', async () => {
    const res = await api.post('/events', {
      title: 'x',
      start_date: '2025-07-14 20:00:00',
      end_date: '2025-07-14 19:59:59',
    });
    expectInvalid(res, 'end_date');
    const { id } = (await createEvent()).body;
    expectInvalid(await api.patch(`/events/${id}`, { start_date: '2025-07-15 10:00:00' }), 'end_date');
  });

  it('takes IANA time zones only, stored under their canonical names', async () => {
    const { id } = (await createEvent()).body;
    for (const zone of ['UTC+2', '+02:00', 'Mars/Olympus'])
      expectInvalid(await api.patch(`/events/${id}`, { timezone: zone }), 'timezone');
    expect((await api.patch(`/events/${id}`, { timezone: 'europe/paris' })).body.timezone).to.equal('Europe/Paris');
    expect((await api.patch(`/events/${id}`, { timezone: 'US/Eastern' })).body.timezone).to.equal('America/New_York');
    // Current IANA names, as sent or for the retired names Intl still reports.
    for (const [sent, stored] of [
      ['Asia/Kolkata', 'Asia/Kolkata'],
      ['Asia/Calcutta', 'Asia/Kolkata'],
      ['europe/kyiv', 'Europe/Kyiv'],
      ['Asia/Ho_Chi_Minh', 'Asia/Ho_Chi_Minh'],
      ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
      ['Etc/UTC', 'UTC'],
      // Zones tzdata links to another country's zone keep their own name (as in PHP's zone list).
      ['Europe/Oslo', 'Europe/Oslo'],
      ['atlantic/reykjavik', 'Atlantic/Reykjavik'],
      ['Asia/Kuala_Lumpur', 'Asia/Kuala_Lumpur'],
      // Names the tz database no longer lists give way to the one it does.
      ['Iceland', 'Atlantic/Reykjavik'],
      ['Antarctica/South_Pole', 'Antarctica/McMurdo'],
    ]) {
      const res = await api.patch(`/events/${id}`, { timezone: sent });
      expect(res.body.timezone, sent).to.equal(stored);
    }
  });

  it('keeps local times in the event zone and derives UTC and the abbreviation (CEST / CET)', async () => {
    const summer = await createEvent({
      timezone: 'Europe/Paris',
      start_date: '2025-07-14 20:00:00',
      end_date: '2025-07-14 23:30:00',
    });
    expect(summer.body).to.deep.include({
      timezone: 'Europe/Paris',
      timezone_abbr: 'CEST',
      start_date: '2025-07-14 20:00:00',
      end_date: '2025-07-14 23:30:00',
      utc_start_date: '2025-07-14 18:00:00',
      utc_end_date: '2025-07-14 21:30:00',
    });
    expect(summer.body.utc_start_date_details).to.deep.equal(details('2025-07-14 18:00:00'));
    expect(summer.body.json_ld.startDate).to.equal('2025-07-14T20:00:00+02:00');
    const winter = await api.patch(`/events/${summer.body.id}`, {
      start_date: '2025-12-24 18:00:00',
      end_date: '2025-12-24T22:00:00Z',
    });
    expect(winter.body).to.deep.include({
      timezone_abbr: 'CET',
      utc_start_date: '2025-12-24 17:00:00',
      end_date: '2025-12-24 23:00:00',
    });
    expectInvalid(await api.patch(`/events/${summer.body.id}`, { timezone: 'Mars/Olympus_Mons' }), 'timezone');
    // The hour clocks repeat in autumn: JSON-LD follows the stored instant, not the local time.
    const repeated = await api.patch(`/events/${summer.body.id}`, {
      timezone: 'Europe/Berlin',
      start_date: '2030-10-27T00:30:00Z',
      end_date: '2030-10-27T01:45:00Z',
    });
    expect(repeated.body).to.deep.include({ start_date: '2030-10-27 02:30:00', end_date: '2030-10-27 02:45:00' });
    expect([repeated.body.json_ld.startDate, repeated.body.json_ld.endDate]).to.deep.equal([
      '2030-10-27T02:30:00+02:00',
      '2030-10-27T02:45:00+01:00',
    ]);
  });

  it('changing only the time zone keeps the local wall-clock times', async () => {
    const res = await createEvent({
      timezone: 'Europe/Paris',
      start_date: '2025-07-14 20:00:00',
      end_date: '2025-07-14 22:00:00',
    });
    const moved = await api.patch(`/events/${res.body.id}`, { timezone: 'America/New_York' });
    expect(moved.body).to.deep.include({
      start_date: '2025-07-14 20:00:00',
      utc_start_date: '2025-07-15 00:00:00',
      timezone_abbr: 'EDT',
    });
  });

  it('snaps all-day events to whole days; all_day stays unless sent', async () => {
    const res = await createEvent({
      all_day: true,
      timezone: 'Europe/Paris',
      start_date: '2025-07-14 15:00:00',
      end_date: '2025-07-15 09:00:00',
    });
    expect(res.body).to.deep.include({
      all_day: true,
      start_date: '2025-07-14 00:00:00',
      end_date: '2025-07-15 23:59:59',
      utc_start_date: '2025-07-13 22:00:00',
    });
    const moved = await api.patch(`/events/${res.body.id}`, { end_date: '2025-07-16 10:00:00' });
    expect(moved.body).to.deep.include({ all_day: true, end_date: '2025-07-16 23:59:59' });
    const off = await api.patch(`/events/${res.body.id}`, { all_day: false, start_date: '2025-07-14 10:00:00' });
    expect(off.body).to.deep.include({
      all_day: false,
      start_date: '2025-07-14 10:00:00',
      end_date: '2025-07-16 23:59:59',
    });
    // An empty value (a form's unchecked box posted as `all_day=`) clears it, as null does.
    for (const cleared of ['', null]) {
      await api.patch(`/events/${res.body.id}`, { all_day: true });
      const res2 = await api.patch(`/events/${res.body.id}`, { all_day: cleared });
      expect(res2.status, JSON.stringify(res2.body)).to.equal(200);
      expect(res2.body.all_day, String(cleared)).to.equal(false);
    }
  });
});

describe('events: request forms', () => {
  it('accepts form-encoded writes, with a[]= arrays', async () => {
    const title = unique('Form Event');
    const form = new URLSearchParams({
      title,
      start_date: '2025-08-01 10:00:00',
      end_date: '2025-08-01 12:00:00',
      featured: 'yes',
      cost: '7 €',
    });
    form.append('tags[]', 'form-tag-a');
    form.append('tags[]', 'form-tag-b');
    const res = await request('POST', `${ROOT}/events`, undefined, {
      key: true,
      raw: form,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status).to.equal(201);
    expect(res.body).to.deep.include({ title, start_date: '2025-08-01 10:00:00', featured: true, cost: '7 €' });
    expect(res.body.tags.map((t: { name: string }) => t.name)).to.deep.equal(['form-tag-a', 'form-tag-b']);
  });

  it('accepts writes in the query string, with comma lists; the body wins on conflict', async () => {
    const title = unique('Query Event');
    const qs = new URLSearchParams({
      title: 'from query',
      start_date: '2025-08-02',
      end_date: '2025-08-02 01:00:00',
      tags: 'query-tag-a,query-tag-b',
    });
    const res = await request('POST', `${ROOT}/events?${qs}`, { title }, { key: true });
    expect(res.status).to.equal(201);
    expect(res.body.title).to.equal(title);
    expect(res.body.start_date).to.equal('2025-08-02 00:00:00');
    expect(res.body.tags.map((t: { slug: string }) => t.slug)).to.deep.equal(['query-tag-a', 'query-tag-b']);
  });

  it('reads JSON arrays written as text in the query string or a form (CONTRACT part 2)', async () => {
    const t = unique('arr');
    const [music, arts] = [
      (await createTerm('category', { name: `Music ${t}` })).id,
      (await createTerm('category', { name: `Arts ${t}` })).id,
    ];
    const venue = (await api.post('/venues', { venue: `Hall ${t}` })).body.id as number;
    const organizer = (await api.post('/organizers', { organizer: `Org ${t}` })).body.id as number;
    const qs = new URLSearchParams({
      title: t,
      start_date: '2028-04-01',
      end_date: '2028-04-01',
      categories: `[${music},${arts}]`,
      venue: `[${venue}]`,
      organizer: `[${organizer}]`,
    });
    const res = await request('POST', `${ROOT}/events?${qs}`, undefined, { key: true });
    expect(res.status).to.equal(201);
    expect(res.body.categories.map((c: { id: number }) => c.id)).to.deep.equal([music, arts]);
    expect(res.body.venue.id).to.equal(venue);
    expect(res.body.organizer.map((o: { id: number }) => o.id)).to.deep.equal([organizer]);
    const form = new URLSearchParams({ tags: `["Jazz, late ${t}","Rock ${t}"]` }).toString();
    const patched = await request('PATCH', `${ROOT}/events/${res.body.id}`, undefined, {
      key: true,
      raw: form,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(patched.status).to.equal(200);
    expect(patched.body.tags.map((tag: { name: string }) => tag.name)).to.deep.equal([`Jazz, late ${t}`, `Rock ${t}`]);
  });

  it('accepts JSON arrays', async () => {
    const res = await createEvent({ tags: ['json-tag-a', 'json-tag-b'] });
    expect(res.body.tags.map((t: { name: string }) => t.name)).to.deep.equal(['json-tag-a', 'json-tag-b']);
  });
});

describe('events: password protection', () => {
  const keys: Record<string, string> = {};
  before(async () => {
    for (const role of ['editor', 'author'] as const)
      keys[role] = (await testWorld().services.apiKeys.create(`events ${role}`, role)).key;
  });

  it('stores only a salted hash and never returns the password', async () => {
    const res = await createEvent({ password: 'open sesame', description: 'Secret party' });
    expect(res.body).to.not.have.any.keys('password', 'passwordHash');
    const docs = await testWorld().services.db.collection('events').find({ id: res.body.id }).toArray();
    expect(docs).to.have.length(1);
    expect(docs[0]!.passwordHash).to.match(/^[0-9a-f]{32}:[0-9a-f]{64}$/);
    expect(JSON.stringify(docs)).to.not.include('open sesame');
    const other = await createEvent({ password: 'open sesame' });
    const otherDoc = await testWorld().services.db.collection('events').findOne({ id: other.body.id });
    expect(otherDoc!.passwordHash).to.not.equal(docs[0]!.passwordHash);
  });

  it('answers 403 event-password-protected without the right password, 200 with it', async () => {
    const { id, slug } = (await createEvent({ password: 'open sesame', description: 'Secret party' })).body;
    for (const path of [`/events/${id}`, `/events/${id}?password=wrong`, `/events/by-slug/${slug}`]) {
      const res = await api.get(path);
      expect(res.status, path).to.equal(403);
      expect(res.body).to.deep.equal({
        code: 'event-password-protected',
        message: 'This event is password protected: send the right `password` parameter to read it.',
        data: { status: 403 },
      });
    }
    const right = await api.get(`/events/${id}?password=open%20sesame`);
    expect(right.status).to.equal(200);
    expect(right.body.description).to.equal('Secret party');
    expect((await api.get(`/events/by-slug/${slug}?password=open+sesame`)).body.id).to.equal(id);
  });

  it('lets editors and administrators read without the password, not authors', async () => {
    const { id } = (await createEvent({ password: 'pw' })).body;
    expect((await api.get(`/events/${id}`, { key: true })).status).to.equal(200);
    expect((await api.get(`/events/${id}`, { key: keys.editor })).status).to.equal(200);
    const author = await api.get(`/events/${id}`, { key: keys.author });
    expect(author.status).to.equal(403);
    expect(author.body.code).to.equal('event-password-protected');
    expect((await api.get(`/events/${id}?password=pw`, { key: keys.author })).status).to.equal(200);
  });

  it('changes and removes the password on update', async () => {
    const { id } = (await createEvent({ password: 'first' })).body;
    await api.patch(`/events/${id}`, { password: 'second' });
    expect((await api.get(`/events/${id}?password=first`)).status).to.equal(403);
    expect((await api.get(`/events/${id}?password=second`)).status).to.equal(200);
    const cleared = await api.patch(`/events/${id}`, { password: '' });
    expect(cleared.status).to.equal(200);
    const open = await api.get(`/events/${id}`);
    expect(open.status).to.equal(200);
    expect(open.body.id).to.equal(id);
    expect((await testWorld().services.db.collection('events').findOne({ id }))!.passwordHash).to.equal(null);
  });
});
