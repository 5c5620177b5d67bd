import { expect } from 'chai';
import { DateTime } from 'luxon';
import { api, request, ROOT } from '../support/api';
import { expectError, expectInvalid, expectMissing } from '../support/errors';
import { testWorld } from '../support/harness';
import { storeEvent } from '../support/records';
import { callers } from '../support/access';

/** The configured public address (PUBLIC_API_URL) records' URLs start with. */
const apiUrl = () => testWorld().config.apiUrl;

const SITE = 'http://calendar.test';
const WIRE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

let counter = 0;
/** A name no other test uses, so slugs never collide by accident. */
const unique = (base: string) => `${base} ${Date.now().toString(36)}${++counter}`;

const restUrl = (id: number, lang?: string) => `${apiUrl()}${lang ? `/${lang}` : ''}${ROOT}/venues/${id}`;
const under = (lang: string, path: string) => `/${lang}${ROOT}${path}`;

async function createVenue(body: Record<string, unknown>, path = `${ROOT}/venues`): Promise<any> {
  const res = await request('POST', path, body, { key: true });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

async function adminUserId(): Promise<number> {
  const keys = await testWorld().services.apiKeys.list();
  return keys.find((key) => key.name === 'test administrator')!.userId;
}

const FULL = {
  address: '1 Main Street',
  city: 'Springfield',
  country: 'United States',
  province: 'Ontario',
  state: 'IL',
  zip: '62701',
  phone: '+1 555 0100',
  stateprovince: 'Illinois',
  website: 'https://hall.example.com/',
  image: 'https://img.example.com/hall.JPG',
  show_map: true,
  show_map_link: false,
  geo_lat: 39.7817,
  geo_lng: -89.6501,
  description: '<p>A <strong>big</strong> hall</p>',
  excerpt: '<em>Big</em>',
};
/** Every optional field but `image` (which reads `false` when unset): null when unset or cleared. */
const NULLABLE = Object.keys(FULL).filter((field) => field !== 'image');

describe('venues: create and read', () => {
  it('creates a venue with every field: 201, Location, the full record', async () => {
    const name = unique('Town Hall');
    const author = (await callers()).stranger.userId;
    const res = await api.post('/venues', {
      venue: name,
      ...FULL,
      status: 'publish',
      author,
      date_utc: '2024-05-01 08:00:00',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const body = res.body;
    expect(res.headers.get('location')).to.equal(restUrl(body.id));
    expect(res.headers.get('content-language')).to.equal('en');
    expect(body.id).to.be.a('number');
    const slug = name.toLowerCase().replace(/ /g, '-');
    expect(body).to.deep.include({
      status: 'publish',
      author,
      date_utc: '2024-05-01 08:00:00',
      slug,
      url: `${SITE}/venue/${slug}/`,
      rest_url: restUrl(body.id),
      i18n_language: 'en',
      translations: { en: restUrl(body.id, 'en') },
      venue: name,
      ...FULL,
      image: { url: FULL.image, id: 0, extension: 'jpg', width: null, height: null },
    });
    expect(body.modified).to.match(WIRE);
    expect(body.modified_utc).to.match(WIRE);
    const read = await api.get(`/venues/${body.id}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.equal(body);
  });

  it('fills defaults and returns empty fields as null, not missing', async () => {
    const before = Date.now();
    const body = await createVenue({ venue: unique('Bare') });
    expect(body.status).to.equal('publish');
    expect(body.author).to.equal(await adminUserId());
    const published = DateTime.fromFormat(body.date_utc, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' }).toMillis();
    expect(published).to.be.within(before - 2000, Date.now() + 1000);
    for (const field of NULLABLE) {
      expect(body, field).to.have.property(field, null);
    }
    expect(body.image).to.equal(false);
  });

  it('reads `date` in the site time zone and lets date_utc win when both are sent', async () => {
    const zone = testWorld().config.defaultTimezone;
    const local = await createVenue({ venue: unique('Dated'), date: '2023-01-15 12:30:00' });
    const expected = DateTime.fromSQL('2023-01-15 12:30:00', { zone });
    expect(local.date).to.equal('2023-01-15 12:30:00');
    expect(local.date_utc).to.equal(expected.toUTC().toFormat('yyyy-MM-dd HH:mm:ss'));
    const both = await createVenue({ venue: unique('Dated'), date: '2020-01-01', date_utc: '2022-06-01T10:00:00Z' });
    expect(both.date_utc).to.equal('2022-06-01 10:00:00');
    const unix = await createVenue({ venue: unique('Dated'), date_utc: '1700000000' });
    expect(unix.date_utc).to.equal('2023-11-14 22:13:20');
  });

  it('accepts every writable status and every boolean form', async () => {
    for (const status of ['publish', 'future', 'draft', 'pending', 'private']) {
      const body = await createVenue({ venue: unique('Status'), status });
      expect(body.status).to.equal(status);
    }
    for (const [sent, expected] of [
      ['yes', true],
      ['0', false],
      ['ON', true],
      ['false', false],
      [1, true],
    ] as const) {
      const body = await createVenue({ venue: unique('Flags'), show_map: sent, show_map_link: sent });
      expect(body.show_map, String(sent)).to.equal(expected);
      expect(body.show_map_link, String(sent)).to.equal(expected);
    }
  });

  it('accepts a form body and query parameters', async () => {
    const name = unique('Form Hall');
    const form = new URLSearchParams({ venue: name, show_map: 'on', geo_lat: '48.85', geo_lng: '2.35', city: 'Paris' });
    const res = await request('POST', `${ROOT}/venues`, undefined, {
      key: true,
      raw: form,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.deep.include({ venue: name, show_map: true, geo_lat: 48.85, geo_lng: 2.35, city: 'Paris' });
    const viaQuery = await api.post(`/venues?venue=${encodeURIComponent(name)}&zip=75001`, {});
    expect(viaQuery.status).to.equal(201);
    expect(viaQuery.body).to.deep.include({ venue: name, zip: '75001' });
  });

  it('sanitises HTML in description and excerpt', async () => {
    const body = await createVenue({
      venue: unique('Html'),
      description:
        '<p onclick="steal()">Hi<script>alert(1)</script> <a href="javascript:alert(1)">x</a> <a href="https://ok.example/">ok</a></p>',
      excerpt: '<img src=x onerror=alert(1)><b>bold</b>',
    });
    expect(body.description).to.equal('<p>Hi <a>x</a> <a href="https://ok.example/">ok</a></p>');
    expect(body.excerpt).to.equal('<b>bold</b>');
  });

  it('ignores unknown and derived parameters', async () => {
    const body = await createVenue({ venue: unique('Extra'), rest_url: 'http://evil/', id: 5, whatever: 1 });
    expect(body.rest_url).to.equal(restUrl(body.id));
    expect(body).not.to.have.property('whatever');
  });
});

describe('venues: validation', () => {
  it('requires `venue` on create', async () => {
    expectMissing(await api.post('/venues', { city: 'Nowhere' }), ['venue']);
    expectInvalid(await api.post('/venues', { venue: '' }), 'venue');
    expectInvalid(await api.post('/venues', { venue: '   ' }), 'venue');
    expectInvalid(await api.post('/venues', { venue: null }), 'venue');
  });

  const bad: [string, unknown][] = [
    ['venue', 'x'.repeat(201)],
    ['venue', 42],
    ['author', -1],
    ['author', 'abc'],
    ['date', 'next blue moon'],
    ['date_utc', '2024-13-45'],
    ['status', 'trash'],
    ['status', 'bogus'],
    ['slug', { a: 1 }],
    ['slug', '!!!'],
    ['description', 123],
    // Within 100000 characters as sent, past them once & is written &amp;.
    ['description', '&'.repeat(20_001)],
    ['excerpt', ['a']],
    ['address', 'x'.repeat(401)],
    ['city', { $ne: 1 }],
    ['country', ['France']],
    ['province', 'p'.repeat(201)],
    ['state', 's'.repeat(201)],
    ['zip', '1'.repeat(41)],
    ['phone', 'line\u0001break'],
    ['stateprovince', true],
    ['website', 'ftp://files.example.com/'],
    ['website', 'not a url'],
    ['image', 123],
    ['image', '123'],
    ['image', 'javascript:alert(1)'],
    ['show_map', 'maybe'],
    ['show_map_link', 2],
    ['geo_lat', 91],
    ['geo_lat', 'north'],
    ['geo_lng', -180.5],
    ['i18n_language', 'es'],
  ];
  for (const [field, value] of bad) {
    it(`rejects ${field} = ${JSON.stringify(value).slice(0, 40)} with a 400 naming it`, async () => {
      const body = { venue: unique('Bad'), geo_lat: 1, geo_lng: 1, [field]: value };
      const res = await api.post('/venues', body);
      expectInvalid(res, field);
      expect(res.body.data.params[field]).to.be.a('string');
    });
  }

  it('names every bad parameter at once', async () => {
    const res = await api.post('/venues', { venue: 'x', website: 'nope', geo_lat: 500, status: 'gone' });
    expectInvalid(res, 'website', 'geo_lat', 'status');
  });

  it('rejects operator-injection objects in bodies and query strings', async () => {
    expectInvalid(await api.post('/venues', { venue: { $gt: '' } }), 'venue');
    expectInvalid(await api.post('/venues?venue[$ne]=x', {}), 'venue');
    const venue = await createVenue({ venue: unique('Target') });
    expectInvalid(await api.patch(`/venues/${venue.id}`, { city: { $set: { venue: 'pwned' } } }), 'city');
    expectInvalid(await api.patch(`/venues/${venue.id}?status[$ne]=publish`, {}), 'status');
    const missing = await api.get(`/venues/by-slug/${encodeURIComponent('{"$gt":""}')}`);
    expectError(missing, 404, 'rest-venue-not-found');
  });

  it('needs both coordinates or neither', async () => {
    expectInvalid(await api.post('/venues', { venue: unique('Half'), geo_lat: 10 }), 'geo_lng');
    const venue = await createVenue({ venue: unique('Point'), geo_lat: 10, geo_lng: 20 });
    expectInvalid(await api.patch(`/venues/${venue.id}`, { geo_lat: null }), 'geo_lat');
    const moved = await api.patch(`/venues/${venue.id}`, { geo_lat: -33.5 });
    expect(moved.status).to.equal(200);
    expect(moved.body).to.deep.include({ geo_lat: -33.5, geo_lng: 20 });
  });
});

describe('venues: update', () => {
  it('merges with POST, PUT and PATCH by ID: only sent fields change', async () => {
    const venue = await createVenue({ venue: unique('Merge'), city: 'Oslo', zip: '0150' });
    const post = await api.post(`/venues/${venue.id}`, { city: 'Bergen' });
    expect(post.status).to.equal(200);
    expect(post.body).to.deep.include({ id: venue.id, venue: venue.venue, city: 'Bergen', zip: '0150' });
    const put = await api.put(`/venues/${venue.id}`, { phone: '123' });
    expect(put.status).to.equal(200);
    expect(put.body).to.deep.include({ city: 'Bergen', zip: '0150', phone: '123' });
    const author = (await callers()).stranger.userId;
    const patch = await api.patch(`/venues/${venue.id}`, { venue: 'Renamed Merge Hall', status: 'draft', author });
    expect(patch.status).to.equal(200);
    expect(patch.body).to.deep.include({
      venue: 'Renamed Merge Hall',
      status: 'draft',
      author,
      city: 'Bergen',
      phone: '123',
    });
    expect(patch.body.slug, 'the slug stays unless sent').to.equal(venue.slug);
    const read = await api.get(`/venues/${venue.id}`, { key: true });
    expect(read.body).to.deep.equal(patch.body);
  });

  it('clears fields sent as null or "", but never the name', async () => {
    const venue = await createVenue({ venue: unique('Clear'), ...FULL });
    const res = await api.patch(`/venues/${venue.id}`, {
      address: null,
      city: '',
      country: null,
      province: '',
      state: null,
      zip: '',
      phone: null,
      stateprovince: '',
      website: '',
      image: null,
      show_map: null,
      show_map_link: '',
      geo_lat: null,
      geo_lng: '',
      description: '',
      excerpt: null,
      author: null,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    for (const field of NULLABLE) {
      expect(res.body[field], field).to.equal(null);
    }
    expect(res.body.image).to.equal(false);
    expect(res.body.author).to.equal(0);
    expect(res.body.venue).to.equal(venue.venue);
    for (const cleared of [null, '', '  ']) {
      const attempt = await api.patch(`/venues/${venue.id}`, { venue: cleared });
      expectInvalid(attempt, 'venue');
      expect(attempt.body.data.params.venue).to.match(/required|string/);
    }
    const read = await api.get(`/venues/${venue.id}`);
    expect(read.body.venue).to.equal(venue.venue);
  });

  it('regenerates the slug from the name when slug is sent as null', async () => {
    const venue = await createVenue({ venue: 'Slug Reset Arena', slug: 'custom-start' });
    expect(venue.slug).to.match(/^custom-start(-\d+)?$/);
    const res = await api.patch(`/venues/${venue.id}`, { slug: null });
    expect(res.status).to.equal(200);
    expect(res.body.slug).to.match(/^slug-reset-arena(-\d+)?$/);
  });
});

describe('venues: by slug', () => {
  it('generates slugs with accents folded and suffixes collisions per language', async () => {
    const base = `Café Müller Ünïcode ${Date.now().toString(36)}`;
    const expected = base
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/ /g, '-');
    const first = await createVenue({ venue: base });
    const second = await createVenue({ venue: base });
    const third = await createVenue({ venue: base });
    expect([first.slug, second.slug, third.slug]).to.deep.equal([expected, `${expected}-2`, `${expected}-3`]);
    expect(first.url).to.equal(`${SITE}/venue/${expected}/`);
    const french = await createVenue({ venue: base }, under('fr', '/venues'));
    expect(french.slug, 'slugs are unique per language').to.equal(expected);
    expect(french.i18n_language).to.equal('fr');
    const sent = await createVenue({ venue: unique('Named'), slug: 'Ma Salle À Moi' });
    expect(sent.slug).to.match(/^ma-salle-a-moi(-\d+)?$/);
  });

  it('keeps slugs in scripts it cannot transliterate, and finds a slug however it is written', async () => {
    const token = Date.now().toString(36);
    const tokyo = await createVenue({ venue: `東京ドーム ${token}` });
    expect(tokyo.slug).to.equal(`東京ドーム-${token}`);
    expect(tokyo.url).to.equal(`${SITE}/venue/${encodeURIComponent(tokyo.slug)}/`);
    expect((await api.get(`/venues/by-slug/${encodeURIComponent(tokyo.slug)}`)).body.id).to.equal(tokyo.id);
    const renamed = await api.patch(`/venues/${tokyo.id}`, { slug: `東京 ${token}` });
    expect(renamed.body.slug).to.equal(`東京-${token}`);
    const cafe = await createVenue({ venue: `Café Zürich Straße ${token}` });
    for (const written of [`CAFE-ZURICH-STRASSE-${token}`, `Café Zürich Straße ${token}`]) {
      const found = await api.get(`/venues/by-slug/${encodeURIComponent(written)}`);
      expect([found.status, found.body.id], written).to.deep.equal([200, cafe.id]);
    }
    // A bad path slug is named as the path names it.
    const tooLong = await api.get(`/venues/by-slug/${'x'.repeat(401)}`);
    expectInvalid(tooLong, 'slug');
    expect(tooLong.body.data.params.slug).to.match(/^slug length must be/);
  });

  it('addresses each of two records whose long names share a slug, the suffixed one included', async () => {
    // A slug is cut to 190 characters; the second one's "-2" makes it longer than that.
    const name = `${unique('Long')} ${'hall '.repeat(40)}`.slice(0, 199);
    const first = await createVenue({ venue: name });
    const second = await createVenue({ venue: name });
    expect(second.slug).to.equal(`${first.slug}-2`);
    for (const venue of [first, second])
      for (const written of [venue.slug, venue.slug.toUpperCase()])
        expect((await api.get(`/venues/by-slug/${written}`)).body.id, written).to.equal(venue.id);
    // The name itself, as long as it is, finds the first (its slug was cut from it).
    expect((await api.get(`/venues/by-slug/${encodeURIComponent(name)}`)).body.id).to.equal(first.id);
    const trashed = await api.delete(`/venues/by-slug/${second.slug}`);
    expect([trashed.status, trashed.body.id, trashed.body.status]).to.deep.equal([200, second.id, 'trash']);
    expect((await api.get(`/venues/${first.id}`)).body.status).to.equal('publish');
  });

  it('reads, updates (changing the slug) and deletes by slug', async () => {
    const venue = await createVenue({ venue: unique('Slugged Place'), city: 'Rome' });
    const read = await api.get(`/venues/by-slug/${venue.slug}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.equal(venue);

    for (const method of ['post', 'put'] as const) {
      const res = await api[method](`/venues/by-slug/${venue.slug}`, { phone: method });
      expect(res.status, method).to.equal(200);
      expect(res.body).to.deep.include({ id: venue.id, phone: method, slug: venue.slug });
    }
    const newSlug = `moved-${Date.now().toString(36)}`;
    const renamed = await api.patch(`/venues/by-slug/${venue.slug}`, { slug: newSlug, city: 'Milan' });
    expect(renamed.status).to.equal(200);
    expect(renamed.body).to.deep.include({
      id: venue.id,
      slug: newSlug,
      city: 'Milan',
      url: `${SITE}/venue/${newSlug}/`,
    });
    expectError(await api.get(`/venues/by-slug/${venue.slug}`), 404, 'rest-venue-not-found');
    expect((await api.get(`/venues/by-slug/${newSlug}`)).body.id).to.equal(venue.id);

    const trashed = await api.delete(`/venues/by-slug/${newSlug}`);
    expect(trashed.status).to.equal(200);
    expect(trashed.body).to.deep.include({ id: venue.id, status: 'trash' });
    expectError(await api.delete(`/venues/by-slug/${newSlug}`), 410, 'venue-is-in-trash');
    const gone = await api.delete(`/venues/by-slug/${newSlug}?force=true`);
    expect(gone.status).to.equal(200);
    expect(gone.body).to.deep.equal({ id: venue.id, deleted: true });
    expectError(await api.get(`/venues/by-slug/${newSlug}`, { key: true }), 404, 'rest-venue-not-found');
  });

  it('looks the slug up in the request language first, then in any language', async () => {
    const name = unique('Gare Centrale');
    const english = await createVenue({ venue: name });
    const french = await createVenue({ venue: name }, under('fr', '/venues'));
    expect(french.slug).to.equal(english.slug);
    const inFrench = await request('GET', under('fr', `/venues/by-slug/${english.slug}`));
    expect(inFrench.body).to.deep.include({ id: french.id, i18n_language: 'fr' });
    const inEnglish = await api.get(`/venues/by-slug/${english.slug}`);
    expect(inEnglish.body).to.deep.include({ id: english.id, i18n_language: 'en' });
    const viaParam = await api.get(`/venues/by-slug/${english.slug}?i18n_language=fr`);
    expect(viaParam.body.id).to.equal(french.id);
    const frenchOnly = await createVenue({ venue: unique('Seulement Ici') }, under('fr', '/venues'));
    const anyLanguage = await request('GET', under('de', `/venues/by-slug/${frenchOnly.slug}`));
    expect(anyLanguage.status).to.equal(200);
    expect(anyLanguage.body).to.deep.include({ id: frenchOnly.id, i18n_language: 'fr' });
  });
});

describe('venues: languages', () => {
  it('serves every root and honours i18n_language over the prefix', async () => {
    const venue = await createVenue({ venue: unique('Everywhere') });
    for (const lang of ['en', 'fr', 'de']) {
      const res = await request('GET', under(lang, `/venues/${venue.id}`));
      expect(res.status, lang).to.equal(200);
      expect(res.headers.get('content-language')).to.equal(lang);
      expect(res.body).to.deep.include({ id: venue.id, venue: venue.venue, i18n_language: 'en' });
    }
    const created = await createVenue({ venue: unique('Deutsch Halle') }, under('de', '/venues'));
    expect(created.i18n_language).to.equal('de');
    expect(created.translations).to.deep.equal({ de: restUrl(created.id, 'de') });
    const param = await createVenue({ venue: unique('Param Salle') }, `${under('de', '/venues')}?i18n_language=fr`);
    expect(param.i18n_language).to.equal('fr');
  });

  it('creates a translation on write in a new language, with fallback and shared fields', async () => {
    const venue = await createVenue({ venue: unique('Town Square'), description: '<p>English</p>', city: 'Paris' });
    const fr = await api.patch(`/venues/${venue.id}?i18n_language=fr`, {
      venue: 'Place de l’Hôtel de Ville',
      description: '<p>Français</p>',
      city: 'Lyon',
    });
    expect(fr.status, JSON.stringify(fr.body)).to.equal(200);
    expect(fr.headers.get('content-language')).to.equal('fr');
    expect(fr.body).to.deep.include({
      venue: 'Place de l’Hôtel de Ville',
      description: '<p>Français</p>',
      city: 'Lyon',
      i18n_language: 'fr',
    });
    expect(fr.body.slug).to.match(/^place-de-lhotel-de-ville(-\d+)?$/);
    expect(fr.body.translations).to.deep.equal({ en: restUrl(venue.id, 'en'), fr: restUrl(venue.id, 'fr') });

    const readFr = await request('GET', under('fr', `/venues/${venue.id}`));
    expect(readFr.body).to.deep.include({ venue: 'Place de l’Hôtel de Ville', i18n_language: 'fr', city: 'Lyon' });
    const readDe = await api.get(`/venues/${venue.id}?i18n_language=de`);
    expect(readDe.body).to.deep.include({
      venue: venue.venue,
      description: '<p>English</p>',
      i18n_language: 'en',
      city: 'Lyon',
    });
    expect(readDe.headers.get('content-language')).to.equal('de');
    const readEn = await api.get(`/venues/${venue.id}`);
    expect(readEn.body).to.deep.include({ venue: venue.venue, slug: venue.slug, city: 'Lyon', i18n_language: 'en' });
    expect(readEn.body.translations).to.have.keys('en', 'fr');

    const sharedFromFr = await request('PATCH', under('fr', `/venues/${venue.id}`), { zip: '69001' }, { key: true });
    expect(sharedFromFr.body.i18n_language).to.equal('fr');
    expect((await api.get(`/venues/${venue.id}`)).body.zip).to.equal('69001');
    const bySlug = await request('GET', under('fr', `/venues/by-slug/${fr.body.slug}`));
    expect(bySlug.body).to.deep.include({ id: venue.id, i18n_language: 'fr' });
  });

  it('starts a translation from the original content when only shared fields are sent', async () => {
    const venue = await createVenue({ venue: unique('Kunsthalle'), description: '<p>Art</p>' });
    const de = await request('PATCH', under('de', `/venues/${venue.id}`), { phone: '030 1234' }, { key: true });
    expect(de.status).to.equal(200);
    expect(de.body).to.deep.include({
      venue: venue.venue,
      description: '<p>Art</p>',
      slug: venue.slug,
      i18n_language: 'de',
      phone: '030 1234',
    });
    expect(de.body.translations).to.have.keys('en', 'de');
  });
});

describe('venues: delete', () => {
  it('trashes, answers 410 on a trashed venue, then force-deletes', async () => {
    const venue = await createVenue({ venue: unique('Doomed') });
    const trashed = await api.delete(`/venues/${venue.id}`);
    expect(trashed.status).to.equal(200);
    expect(trashed.body).to.deep.include({ id: venue.id, venue: venue.venue, status: 'trash' });
    expectError(await api.get(`/venues/${venue.id}`), 403, 'venue-no-longer-available');
    const asAdmin = await api.get(`/venues/${venue.id}`, { key: true });
    expect(asAdmin.body.status).to.equal('trash');
    expectError(await api.delete(`/venues/${venue.id}`), 410, 'venue-is-in-trash');
    const forced = await api.delete(`/venues/${venue.id}?force=true`);
    expect(forced.status).to.equal(200);
    expect(forced.body).to.deep.equal({ id: venue.id, deleted: true });
    expectError(await api.get(`/venues/${venue.id}`, { key: true }), 404, 'rest-venue-not-found');
    expectError(await api.delete(`/venues/${venue.id}?force=true`), 404, 'rest-venue-not-found');
  });

  it('force-deletes directly (every language) and removes the venue from events linking it', async () => {
    const { services } = testWorld();
    const doomed = await createVenue({ venue: unique('Linked') });
    await api.patch(`/venues/${doomed.id}?i18n_language=fr`, { venue: 'Lié' });
    const kept = await createVenue({ venue: unique('Kept') });
    const event = await storeEvent('en', {
      title: unique('Gig'),
      status: 'publish',
      venues: [doomed.id, kept.id],
      organizers: [],
    });
    const res = await request('DELETE', under('fr', `/venues/${doomed.id}`), { force: 'yes' }, { key: true });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ id: doomed.id, deleted: true });
    expect(await services.stores.venues.get(doomed.id)).to.equal(null);
    const after = await services.stores.events.get(event.id);
    expect(after!.docs.en!.venues).to.deep.equal([kept.id]);
  });
});

describe('venues: access and errors', () => {
  it('refuses writes without a key: 401 with WWW-Authenticate: Bearer', async () => {
    const venue = await createVenue({ venue: unique('Guarded') });
    const attempts = [
      request('POST', `${ROOT}/venues`, { venue: 'x' }),
      request('POST', `${ROOT}/venues/${venue.id}`, { city: 'x' }),
      request('PUT', `${ROOT}/venues/${venue.id}`, { city: 'x' }),
      request('PATCH', under('fr', `/venues/by-slug/${venue.slug}`), { city: 'x' }),
      request('DELETE', `${ROOT}/venues/${venue.id}`),
      request('DELETE', `${ROOT}/venues/by-slug/${venue.slug}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expectError(res, 401, 'rest_unauthorized');
      expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
    }
    expect((await api.get(`/venues/${venue.id}`)).body.city).to.equal(null);
  });

  it('tells a wrong-kind ID (400) from an unknown one (404)', async () => {
    const organizer = await api.post('/organizers', { organizer: unique('Not A Venue') });
    expect(organizer.status).to.equal(201);
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await request(
        method,
        `${ROOT}/venues/${organizer.body.id}`,
        method === 'PATCH' ? { city: 'x' } : undefined,
        { key: true },
      );
      expectError(res, 400, 'rest-invalid-venue-id');
    }
    expectError(await api.get('/venues/987654321'), 404, 'rest-venue-not-found');
    expectError(await api.patch('/venues/987654321', { city: 'x' }), 404, 'rest-venue-not-found');
    expectError(await api.get('/venues/abc'), 404, 'rest_no_route');
    // Past the safe integers: not found, named as written rather than rounded.
    const huge = await api.get('/venues/12345678901234567890');
    expectError(huge, 404, 'rest-venue-not-found');
    expect(huge.body.message).to.equal('The venue 12345678901234567890 was not found.');
  });

  it('hides unpublished venues from anonymous readers', async () => {
    const draft = await createVenue({ venue: unique('Secret'), status: 'draft' });
    expectError(await api.get(`/venues/${draft.id}`), 403, 'venue-not-accessible');
    expectError(await api.get(`/venues/by-slug/${draft.slug}`), 403, 'venue-not-accessible');
    const asAdmin = await api.get(`/venues/${draft.id}`, { key: true });
    expect(asAdmin.status).to.equal(200);
    expect(asAdmin.body).to.deep.include({ id: draft.id, status: 'draft' });
  });

  it('answers 405 with Allow for unsupported methods', async () => {
    const res = await request('DELETE', `${ROOT}/venues`, undefined, { key: true });
    expectError(res, 405, 'rest_method_not_allowed');
    expect(res.headers.get('allow')).to.include('POST');
  });
});
