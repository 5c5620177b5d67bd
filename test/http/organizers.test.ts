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

const restUrl = (id: number, lang?: string) => `${apiUrl()}${lang ? `/${lang}` : ''}${ROOT}/organizers/${id}`;
const under = (lang: string, path: string) => `/${lang}${ROOT}${path}`;

async function createOrganizer(body: Record<string, unknown>, path = `${ROOT}/organizers`): Promise<any> {
  const res = await request('POST', path, body, { key: true });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

async function adminUserId(): Promise<number> {
  const keys = await testWorld().services.apiKeys.list();
  return keys.find((key) => key.name === 'test administrator')!.userId;
}

const FULL = {
  phone: '+44 20 7946 0000',
  website: 'https://crew.example.org/',
  email: 'hello@crew.example.org',
  image: 'https://img.example.org/logo.png',
  description: '<p>We run <em>shows</em></p>',
  excerpt: '<strong>Shows</strong>',
};
/** Every optional field but `image` (which reads `false` when unset): null when unset or cleared. */
const NULLABLE = Object.keys(FULL).filter((field) => field !== 'image');

describe('organizers: create and read', () => {
  it('creates an organizer with every field: 201, Location, the full record', async () => {
    const name = unique('Stage Crew');
    const author = (await callers()).stranger.userId;
    const res = await api.post('/organizers', {
      organizer: name,
      ...FULL,
      status: 'publish',
      author,
      date: '2024-02-29 18:00:00',
      date_utc: '2024-03-01T09:15:00Z',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const body = res.body;
    expect(res.headers.get('location')).to.equal(restUrl(body.id));
    expect(res.headers.get('content-language')).to.equal('en');
    const slug = name.toLowerCase().replace(/ /g, '-');
    expect(body).to.deep.include({
      status: 'publish',
      author,
      date_utc: '2024-03-01 09:15:00',
      slug,
      url: `${SITE}/organizer/${slug}/`,
      rest_url: restUrl(body.id),
      i18n_language: 'en',
      translations: { en: restUrl(body.id, 'en') },
      organizer: name,
      ...FULL,
      image: { url: FULL.image, id: 0, extension: 'png', width: null, height: null },
    });
    expect(body.date).to.match(WIRE);
    expect(body.modified).to.match(WIRE);
    const read = await api.get(`/organizers/${body.id}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.equal(body);
  });

  it('fills defaults and returns empty fields as null, not missing', async () => {
    const before = Date.now();
    const body = await createOrganizer({ organizer: unique('Bare Org') });
    expect(body.status).to.equal('publish');
    expect(body.author).to.equal(await adminUserId());
    const published = DateTime.fromFormat(body.date_utc, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' }).toMillis();
    expect(published).to.be.within(before - 2000, Date.now() + 1000);
    for (const field of NULLABLE) expect(body, field).to.have.property(field, null);
    expect(body.image).to.equal(false);
  });

  it('reads `date` in the site time zone and accepts relative dates', async () => {
    const zone = testWorld().config.defaultTimezone;
    const local = await createOrganizer({ organizer: unique('Dated Org'), date: '2021-07-04T20:00:00' });
    expect(local.date).to.equal('2021-07-04 20:00:00');
    expect(local.date_utc).to.equal(
      DateTime.fromISO('2021-07-04T20:00:00', { zone }).toUTC().toFormat('yyyy-MM-dd HH:mm:ss'),
    );
    const relative = await createOrganizer({ organizer: unique('Later Org'), date_utc: '+1 week', status: 'future' });
    const when = DateTime.fromFormat(relative.date_utc, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' });
    expect(when.diffNow('days').days).to.be.within(6.9, 7.1);
    expect(relative.status).to.equal('future');
  });

  it('accepts a multipart form body and sanitises HTML', async () => {
    const name = unique('Form Org');
    const form = new FormData();
    form.set('organizer', name);
    form.set('email', 'form@example.com');
    form.set('description', '<p onmouseover="x()">Hi<script>bad()</script></p>');
    const res = await fetch(`${testWorld().baseUrl}${ROOT}/organizers`, {
      method: 'POST',
      body: form,
      headers: { Authorization: `Bearer ${testWorld().adminKey}` },
    });
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).to.equal(201);
    expect(body).to.deep.include({ organizer: name, email: 'form@example.com', description: '<p>Hi</p>' });
  });
});

describe('organizers: validation', () => {
  it('requires `organizer` on create', async () => {
    expectMissing(await api.post('/organizers', { phone: '1' }), ['organizer']);
    expectInvalid(await api.post('/organizers', { organizer: '' }), 'organizer');
    expectInvalid(await api.post('/organizers', { organizer: null }), 'organizer');
  });

  const bad: [string, unknown][] = [
    ['organizer', 'o'.repeat(201)],
    ['organizer', { $gt: '' }],
    ['author', 1.5],
    ['date', 'soonish'],
    ['date_utc', { $gt: 0 }],
    ['status', 'trash'],
    ['slug', ['a']],
    ['description', { html: 'x' }],
    ['excerpt', 7],
    ['phone', 'p'.repeat(61)],
    ['website', 'mailto:someone@example.com'],
    ['email', 'not-an-email'],
    ['email', 'a@b@c'],
    ['image', 55],
    ['image', 'data:image/png;base64,AAAA'],
    ['i18n_language', 'it'],
  ];
  for (const [field, value] of bad) {
    it(`rejects ${field} = ${JSON.stringify(value).slice(0, 40)} with a 400 naming it`, async () => {
      const res = await api.post('/organizers', { organizer: unique('Bad Org'), [field]: value });
      expectInvalid(res, field);
      expect(res.body.data.params[field]).to.be.a('string');
    });
  }

  it('rejects operator-injection objects in query strings and update bodies', async () => {
    expectInvalid(await api.post('/organizers?organizer[$ne]=x', {}), 'organizer');
    const organizer = await createOrganizer({ organizer: unique('Target Org') });
    expectInvalid(await api.patch(`/organizers/${organizer.id}`, { email: { $regex: '.*' } }), 'email');
    expectInvalid(await api.put(`/organizers/by-slug/${organizer.slug}`, { organizer: { $gt: '' } }), 'organizer');
    expect((await api.get(`/organizers/${organizer.id}`)).body.organizer).to.equal(organizer.organizer);
  });
});

describe('organizers: update', () => {
  it('merges with POST, PUT and PATCH by ID: only sent fields change', async () => {
    const organizer = await createOrganizer({ organizer: unique('Merge Org'), phone: '111', email: 'a@example.com' });
    const post = await api.post(`/organizers/${organizer.id}`, { phone: '222' });
    expect(post.status).to.equal(200);
    expect(post.body).to.deep.include({
      id: organizer.id,
      phone: '222',
      email: 'a@example.com',
      organizer: organizer.organizer,
    });
    const put = await api.put(`/organizers/${organizer.id}`, { website: 'http://merge.example/' });
    expect(put.body).to.deep.include({ phone: '222', email: 'a@example.com', website: 'http://merge.example/' });
    const patch = await api.patch(`/organizers/${organizer.id}`, { organizer: 'Merged Org', status: 'pending' });
    expect(patch.body).to.deep.include({
      organizer: 'Merged Org',
      status: 'pending',
      phone: '222',
      slug: organizer.slug,
    });
  });

  it('clears fields sent as null or "", but never the name', async () => {
    const organizer = await createOrganizer({ organizer: unique('Clear Org'), ...FULL });
    const res = await api.patch(`/organizers/${organizer.id}`, {
      phone: '',
      website: null,
      email: '',
      image: '',
      description: null,
      excerpt: '',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    for (const field of NULLABLE) expect(res.body[field], field).to.equal(null);
    expect(res.body.image).to.equal(false);
    for (const cleared of [null, ''])
      expectInvalid(await api.patch(`/organizers/${organizer.id}`, { organizer: cleared }), 'organizer');
    expect((await api.get(`/organizers/${organizer.id}`)).body.organizer).to.equal(organizer.organizer);
  });
});

describe('organizers: by slug', () => {
  it('generates slugs with accents folded and suffixes collisions', async () => {
    const base = `Société Générale Événements ${Date.now().toString(36)}`;
    const expected = base
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/ /g, '-');
    const first = await createOrganizer({ organizer: base });
    const second = await createOrganizer({ organizer: base });
    expect([first.slug, second.slug]).to.deep.equal([expected, `${expected}-2`]);
    expect(second.url).to.equal(`${SITE}/organizer/${expected}-2/`);
    const german = await createOrganizer({ organizer: base }, under('de', '/organizers'));
    expect(german.slug).to.equal(expected);
  });

  it('reads, updates (changing the slug) and deletes by slug under prefixed roots', async () => {
    const organizer = await createOrganizer({ organizer: unique('Slug Org') });
    const read = await request('GET', under('de', `/organizers/by-slug/${organizer.slug}`));
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.include({ id: organizer.id, i18n_language: 'en' });
    for (const method of ['POST', 'PUT']) {
      const res = await request(
        method,
        under('en', `/organizers/by-slug/${organizer.slug}`),
        { phone: method },
        { key: true },
      );
      expect(res.status, method).to.equal(200);
      expect(res.body).to.deep.include({ id: organizer.id, phone: method });
    }
    const newSlug = `renamed-org-${Date.now().toString(36)}`;
    const renamed = await api.patch(`/organizers/by-slug/${organizer.slug}`, { slug: newSlug });
    expect(renamed.body).to.deep.include({ id: organizer.id, slug: newSlug, phone: 'PUT' });
    expectError(await api.get(`/organizers/by-slug/${organizer.slug}`), 404, 'rest-organizer-not-found');
    const trashed = await api.delete(`/organizers/by-slug/${newSlug}`);
    expect(trashed.body).to.deep.include({ id: organizer.id, status: 'trash' });
    expectError(await api.get(`/organizers/by-slug/${newSlug}`), 403, 'organizer-no-longer-available');
    expectError(await api.delete(`/organizers/by-slug/${newSlug}`), 410, 'organizer-is-in-trash');
    const gone = await api.delete(`/organizers/by-slug/${newSlug}?force=1`);
    expect(gone.body).to.deep.equal({ id: organizer.id, deleted: true });
  });

  it('looks the slug up in the request language first, then in any language', async () => {
    const name = unique('Les Amis');
    const english = await createOrganizer({ organizer: name });
    const french = await createOrganizer({ organizer: name }, `${ROOT}/organizers?i18n_language=fr`);
    expect(french.slug).to.equal(english.slug);
    expect((await api.get(`/organizers/by-slug/${english.slug}?i18n_language=fr`)).body.id).to.equal(french.id);
    expect((await api.get(`/organizers/by-slug/${english.slug}`)).body.id).to.equal(english.id);
    const germanOnly = await createOrganizer({ organizer: unique('Nur Deutsch') }, under('de', '/organizers'));
    const found = await api.get(`/organizers/by-slug/${germanOnly.slug}`);
    expect(found.body).to.deep.include({ id: germanOnly.id, i18n_language: 'de' });
  });
});

describe('organizers: languages', () => {
  it('creates a translation on write in a new language, with fallback and shared fields', async () => {
    const organizer = await createOrganizer({
      organizer: unique('Music Society'),
      description: '<p>English</p>',
      phone: '1',
    });
    const fr = await api.patch(`/organizers/${organizer.id}?i18n_language=fr`, {
      organizer: 'Société de Musique',
      phone: '2',
    });
    expect(fr.status).to.equal(200);
    expect(fr.body).to.deep.include({
      organizer: 'Société de Musique',
      description: '<p>English</p>',
      phone: '2',
      i18n_language: 'fr',
    });
    expect(fr.body.slug).to.match(/^societe-de-musique(-\d+)?$/);
    expect(fr.body.translations).to.deep.equal({ en: restUrl(organizer.id, 'en'), fr: restUrl(organizer.id, 'fr') });
    const readFr = await request('GET', under('fr', `/organizers/${organizer.id}`));
    expect(readFr.headers.get('content-language')).to.equal('fr');
    expect(readFr.body).to.deep.include({ organizer: 'Société de Musique', i18n_language: 'fr' });
    const readDe = await request('GET', under('de', `/organizers/${organizer.id}`));
    expect(readDe.body).to.deep.include({ organizer: organizer.organizer, i18n_language: 'en', phone: '2' });
    const readEn = await api.get(`/organizers/${organizer.id}`);
    expect(readEn.body).to.deep.include({ organizer: organizer.organizer, phone: '2', slug: organizer.slug });
    expect(readEn.body.translations).to.have.keys('en', 'fr');
    const frDescription = await api.patch(`/organizers/${organizer.id}?i18n_language=fr`, {
      description: '<p>Français</p>',
    });
    expect(frDescription.body.description).to.equal('<p>Français</p>');
    expect((await api.get(`/organizers/${organizer.id}`)).body.description, 'description is translatable').to.equal(
      '<p>English</p>',
    );
  });
});

describe('organizers: delete', () => {
  it('force-deletes and removes the organizer from every event linking it', async () => {
    const { services } = testWorld();
    const doomed = await createOrganizer({ organizer: unique('Doomed Org') });
    const kept = await createOrganizer({ organizer: unique('Kept Org') });
    const first = await storeEvent('en', {
      title: unique('Show'),
      status: 'publish',
      venues: [],
      organizers: [kept.id, doomed.id],
    });
    const second = await storeEvent('fr', {
      title: unique('Spectacle'),
      status: 'publish',
      venues: [],
      organizers: [doomed.id],
    });
    const res = await api.delete(`/organizers/${doomed.id}?force=true`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ id: doomed.id, deleted: true });
    expectError(await api.get(`/organizers/${doomed.id}`), 404, 'rest-organizer-not-found');
    expect((await services.stores.events.get(first.id))!.docs.en!.organizers).to.deep.equal([kept.id]);
    expect((await services.stores.events.get(second.id))!.docs.fr!.organizers).to.deep.equal([]);
  });

  it('trashes first, then 410 on a second delete', async () => {
    const organizer = await createOrganizer({ organizer: unique('Trash Org'), status: 'draft' });
    const trashed = await request('DELETE', under('fr', `/organizers/${organizer.id}`), undefined, { key: true });
    expect(trashed.status).to.equal(200);
    expect(trashed.body).to.deep.include({ id: organizer.id, status: 'trash', organizer: organizer.organizer });
    expectError(await api.delete(`/organizers/${organizer.id}`), 410, 'organizer-is-in-trash');
  });
});

describe('organizers: access and errors', () => {
  it('refuses writes without a key: 401 with WWW-Authenticate: Bearer', async () => {
    const organizer = await createOrganizer({ organizer: unique('Guarded Org') });
    for (const [method, path] of [
      ['POST', `${ROOT}/organizers`],
      ['PATCH', `${ROOT}/organizers/${organizer.id}`],
      ['PUT', under('de', `/organizers/by-slug/${organizer.slug}`)],
      ['DELETE', `${ROOT}/organizers/${organizer.id}?force=true`],
    ]) {
      const res = await request(method!, path!, method === 'DELETE' ? undefined : { organizer: 'x' });
      expectError(res, 401, 'rest_unauthorized');
      expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
    }
    expect((await api.get(`/organizers/${organizer.id}`)).body.organizer).to.equal(organizer.organizer);
  });

  it('tells a wrong-kind ID (400) from an unknown one (404)', async () => {
    const venue = await api.post('/venues', { venue: unique('Not An Organizer') });
    expect(venue.status).to.equal(201);
    const read = await api.get(`/organizers/${venue.body.id}`);
    expectError(read, 400, 'rest-invalid-organizer-id');
    expect(read.body.data.params).to.deep.equal({ id: `${venue.body.id} is not an organizer` });
    expectError(await api.put(`/organizers/${venue.body.id}`, { phone: '1' }), 400, 'rest-invalid-organizer-id');
    expectError(await api.delete(`/organizers/${venue.body.id}?force=true`), 400, 'rest-invalid-organizer-id');
    expect((await api.get(`/venues/${venue.body.id}`)).status, 'the venue is untouched').to.equal(200);
    expectError(await api.get('/organizers/876543210'), 404, 'rest-organizer-not-found');
    expectError(await api.delete('/organizers/876543210'), 404, 'rest-organizer-not-found');
  });

  it('hides unpublished organizers from anonymous readers', async () => {
    for (const status of ['draft', 'pending', 'private', 'future']) {
      const hidden = await createOrganizer({ organizer: unique(`Hidden ${status}`), status });
      expectError(await api.get(`/organizers/${hidden.id}`), 403, 'organizer-not-accessible');
      const asAdmin = await api.get(`/organizers/by-slug/${hidden.slug}`, { key: true });
      expect(asAdmin.body).to.deep.include({ id: hidden.id, status });
    }
  });
});
