import { expect } from 'chai';
import { api, request, ROOT } from '../support/api';
import { testWorld } from '../support/harness';

/** The configured public address (PUBLIC_API_URL) records' URLs start with. */
const apiUrl = () => testWorld().config.apiUrl;

let counter = 0;
const stamp = () => `${Date.now().toString(36)}${++counter}`;

async function createEvent(fields: Record<string, unknown>, root = ROOT): Promise<any> {
  const res = await request(
    'POST',
    `${root}/events`,
    { start_date: '2025-10-01 18:00:00', end_date: '2025-10-01 20:00:00', ...fields },
    { key: true },
  );
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

describe('events: every route under every root', () => {
  for (const prefix of ['', '/en', '/fr', '/de']) {
    const root = `${prefix}${ROOT}`;
    const lang = prefix ? prefix.slice(1) : 'en';

    it(`serves create, read, update and delete by ID and slug under ${root || '/'}`, async () => {
      const s = stamp();
      const created = await createEvent({ title: `Rooted ${s}` }, root);
      expect(created.i18n_language).to.equal(lang);
      expect(created.translations).to.deep.equal({ [lang]: `${apiUrl()}/${lang}${ROOT}/events/${created.id}` });
      // The root that serves the document's language: following it gives the same document.
      const ownRoot = lang === 'en' ? ROOT : `/${lang}${ROOT}`;
      expect(created.rest_url).to.equal(`${apiUrl()}${ownRoot}/events/${created.id}`);
      expect((await request('GET', created.rest_url.slice(apiUrl().length))).body).to.deep.equal(created);

      const byId = await request('GET', `${root}/events/${created.id}`);
      expect(byId.status).to.equal(200);
      expect(byId.headers.get('content-language')).to.equal(lang);
      expect(byId.body).to.deep.equal(created);
      const bySlug = await request('GET', `${root}/events/by-slug/${created.slug}`);
      expect(bySlug.body).to.deep.equal(created);

      for (const method of ['POST', 'PUT', 'PATCH']) {
        const res = await request(
          method,
          `${root}/events/${created.id}`,
          { excerpt: `${method} by id` },
          { key: true },
        );
        expect(res.status, method).to.equal(200);
        expect(res.body).to.include({ id: created.id, excerpt: `${method} by id`, i18n_language: lang });
        const slugged = await request(
          method,
          `${root}/events/by-slug/${created.slug}`,
          { excerpt: `${method} by slug` },
          { key: true },
        );
        expect(slugged.status, method).to.equal(200);
        expect(slugged.body).to.include({ id: created.id, excerpt: `${method} by slug` });
      }

      const trashed = await request('DELETE', `${root}/events/by-slug/${created.slug}`, undefined, { key: true });
      expect(trashed.body).to.include({ id: created.id, status: 'trash' });
      const gone = await request('DELETE', `${root}/events/${created.id}`, undefined, { key: true });
      expect(gone.status).to.equal(410);
      expect(gone.body.code).to.equal('event-is-in-trash');
      const forced = await request('DELETE', `${root}/events/${created.id}?force=true`, undefined, { key: true });
      expect(forced.body).to.deep.equal({ id: created.id, deleted: true });
    });
  }

  it('rejects an unknown i18n_language on event routes', async () => {
    const res = await api.get('/events/1?i18n_language=es');
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('rest_invalid_param');
    expect(res.body.data.params).to.have.key('i18n_language');
  });
});

describe('events: translations', () => {
  it('creates a translation on the first write in a language, starting from the original', async () => {
    const s = stamp();
    const en = await createEvent({ title: `Jazz Night ${s}`, description: '<p>In English</p>', cost: '$10' });
    const fr = await api.patch(`/events/${en.id}?i18n_language=fr`, { title: `Soirée Jazz ${s}` });
    expect(fr.status).to.equal(200);
    expect(fr.headers.get('content-language')).to.equal('fr');
    expect(fr.body).to.include({
      id: en.id,
      i18n_language: 'fr',
      title: `Soirée Jazz ${s}`,
      slug: `soiree-jazz-${s}`,
      description: '<p>In English</p>',
      cost: '$10',
    });
    expect(fr.body.translations).to.deep.equal({
      en: `${apiUrl()}/en${ROOT}/events/${en.id}`,
      fr: `${apiUrl()}/fr${ROOT}/events/${en.id}`,
    });
    expect(fr.body.url).to.equal(`http://calendar.test/event/soiree-jazz-${s}/`);
    expect(fr.body.json_ld.name).to.equal(`Soirée Jazz ${s}`);
  });

  it('reads each language, falling back to the original language', async () => {
    const s = stamp();
    const en = await createEvent({ title: `Opera ${s}` });
    await api.patch(`/events/${en.id}`, { title: `Opéra ${s}`, i18n_language: 'fr' });
    const fr = await api.get(`/events/${en.id}?i18n_language=fr`);
    expect(fr.body).to.include({ i18n_language: 'fr', title: `Opéra ${s}` });
    const prefixed = await request('GET', `/fr${ROOT}/events/${en.id}`);
    expect(prefixed.body).to.deep.equal(fr.body);
    const english = await api.get(`/events/${en.id}`);
    expect(english.body).to.include({ i18n_language: 'en', title: `Opera ${s}` });
    const de = await request('GET', `/de${ROOT}/events/${en.id}`);
    expect(de.headers.get('content-language')).to.equal('de');
    expect(de.body).to.include({ i18n_language: 'en', title: `Opera ${s}` });
    expect(de.body.translations).to.have.keys('en', 'fr');
    const paramWins = await request('GET', `/de${ROOT}/events/${en.id}?i18n_language=fr`);
    expect(paramWins.body.title).to.equal(`Opéra ${s}`);
  });

  it('shares every non-translatable field across languages; keeps text per language', async () => {
    const s = stamp();
    const en = await createEvent({ title: `Shared ${s}`, description: 'English text' });
    await api.patch(`/events/${en.id}?i18n_language=fr`, { title: `Partagé ${s}` });
    const fr = await api.patch(`/events/${en.id}?i18n_language=fr`, {
      description: 'Texte français',
      start_date: '2025-10-02 18:00:00',
      end_date: '2025-10-02 22:00:00',
      featured: true,
      timezone: 'Europe/Paris',
    });
    expect(fr.body).to.include({ description: 'Texte français', start_date: '2025-10-02 18:00:00', featured: true });
    const back = await api.get(`/events/${en.id}`);
    expect(back.body).to.include({
      title: `Shared ${s}`,
      description: 'English text',
      start_date: '2025-10-02 18:00:00',
      end_date: '2025-10-02 22:00:00',
      utc_start_date: '2025-10-02 16:00:00',
      timezone: 'Europe/Paris',
      timezone_abbr: 'CEST',
      featured: true,
    });
  });

  it('creates in the request language given by the prefix or by i18n_language in the body', async () => {
    const s = stamp();
    const de = await createEvent({ title: `Konzert Über ${s}` }, `/de${ROOT}`);
    expect(de).to.include({ i18n_language: 'de', slug: `konzert-uber-${s}` });
    const fr = await createEvent({ title: `Fête ${s}`, i18n_language: 'fr' });
    expect(fr).to.include({ i18n_language: 'fr', slug: `fete-${s}` });
    const en = await api.get(`/events/${fr.id}`);
    expect(en.body).to.include({ i18n_language: 'fr', title: `Fête ${s}` });
  });
});

describe('events: slugs', () => {
  it('generates slugs from titles, folding accents and suffixing collisions per language', async () => {
    const s = stamp();
    const first = await createEvent({ title: `Fête de la Musique ${s}` });
    const second = await createEvent({ title: `Fete de la musique ${s}` });
    const third = await createEvent({ title: `FÊTE  de  la  musique ${s}` });
    expect([first.slug, second.slug, third.slug]).to.deep.equal([
      `fete-de-la-musique-${s}`,
      `fete-de-la-musique-${s}-2`,
      `fete-de-la-musique-${s}-3`,
    ]);
    const french = await createEvent({ title: `Fête de la Musique ${s}`, i18n_language: 'fr' });
    expect(french.slug).to.equal(`fete-de-la-musique-${s}`);
    const fourth = await createEvent({ title: `Other ${s}` });
    const taken = await api.patch(`/events/${fourth.id}`, { slug: first.slug });
    expect(taken.body.slug).to.equal(`fete-de-la-musique-${s}-4`);
  });

  it('looks a slug up in the request language first, then in any language', async () => {
    const s = stamp();
    const english = await createEvent({ title: `Concert ${s}` });
    const french = await createEvent({ title: `Concert ${s}`, i18n_language: 'fr' });
    const frOnly = await createEvent({ title: `Seulement ${s}`, i18n_language: 'fr' });
    expect((await request('GET', `/fr${ROOT}/events/by-slug/concert-${s}`)).body.id).to.equal(french.id);
    expect((await request('GET', `/en${ROOT}/events/by-slug/concert-${s}`)).body.id).to.equal(english.id);
    expect((await api.get(`/events/by-slug/concert-${s}?i18n_language=fr`)).body.id).to.equal(french.id);
    const fallback = await request('GET', `/de${ROOT}/events/by-slug/seulement-${s}`);
    expect(fallback.status).to.equal(200);
    expect(fallback.body).to.include({ id: frOnly.id, i18n_language: 'fr' });
  });

  it('updates through a translated slug and changes only that language’s slug', async () => {
    const s = stamp();
    const en = await createEvent({ title: `Lecture ${s}` });
    await api.patch(`/events/${en.id}?i18n_language=fr`, { title: `Conférence ${s}` });
    const res = await request(
      'PATCH',
      `/fr${ROOT}/events/by-slug/conference-${s}`,
      { slug: `nouvelle-conference-${s}` },
      { key: true },
    );
    expect(res.body).to.include({ id: en.id, slug: `nouvelle-conference-${s}`, i18n_language: 'fr' });
    expect((await api.get(`/events/${en.id}`)).body.slug).to.equal(`lecture-${s}`);
  });
});
