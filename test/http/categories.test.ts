import { expect } from 'chai';
import { api, request, ROOT } from '../support/api';
import { expectError, expectInvalid, expectMissing } from '../support/errors';
import { testWorld } from '../support/harness';
import { createTerm, expectedTerm, uniqueToken } from '../support/terms';
import { storeEvent } from '../support/records';

async function publishedEvent(fields: Record<string, unknown>): Promise<number> {
  const created = await storeEvent('en', { title: `Event ${uniqueToken()}`, status: 'publish', ...fields } as never);
  return created.id;
}

describe('categories: create and read', () => {
  it('creates a category: 201, Location, the full record', async () => {
    const t = uniqueToken();
    const res = await api.post('/categories', {
      name: `Jazz ${t}`,
      description: '<p>Smooth <strong>jazz</strong></p>',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const expected = expectedTerm('category', {
      id: res.body.id,
      name: `Jazz ${t}`,
      slug: `jazz-${t}`,
      description: '<p>Smooth <strong>jazz</strong></p>',
    });
    expect(res.body).to.deep.equal(expected);
    expect(res.headers.get('location')).to.equal(expected.rest_url);
    expect(res.body.id).to.be.a('number').above(0);
  });

  it('reads a category by ID under every root, in the language asked for', async () => {
    const t = uniqueToken();
    const created = await createTerm('category', { name: `Blues ${t}` });
    const expected = expectedTerm('category', { id: created.id, name: `Blues ${t}`, slug: `blues-${t}` });
    for (const root of ['', '/en', '/fr', '/de']) {
      const res = await request('GET', `${root}${ROOT}/categories/${created.id}`);
      expect(res.status, root).to.equal(200);
      expect(res.headers.get('content-language')).to.equal(root.slice(1) || 'en');
      // Only the English document exists, so every language falls back to it.
      expect(res.body, root).to.deep.equal(expected);
    }
  });

  it('creates in the request language (prefix or i18n_language) and accepts form bodies', async () => {
    const t = uniqueToken();
    const fr = await request('POST', `/fr${ROOT}/categories`, { name: `Théâtre ${t}` }, { key: true });
    expect(fr.status).to.equal(201);
    expect(fr.body).to.deep.equal(
      expectedTerm('category', { id: fr.body.id, name: `Théâtre ${t}`, slug: `theatre-${t}`, lang: 'fr' }),
    );
    const de = await api.post('/categories', { name: `Kino ${t}`, i18n_language: 'de' });
    expect(de.status).to.equal(201);
    expect(de.body).to.deep.equal(
      expectedTerm('category', { id: de.body.id, name: `Kino ${t}`, slug: `kino-${t}`, lang: 'de' }),
    );
    const form = await request('POST', `${ROOT}/categories`, undefined, {
      key: true,
      raw: new URLSearchParams({ name: `Opera ${t}`, description: 'Arias' }),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.status).to.equal(201);
    expect(form.body).to.deep.equal(
      expectedTerm('category', { id: form.body.id, name: `Opera ${t}`, slug: `opera-${t}`, description: 'Arias' }),
    );
  });

  it('requires a key for every write: 401 rest_unauthorized', async () => {
    const created = await createTerm('category', { name: `Locked ${uniqueToken()}` });
    const attempts = [
      await api.post('/categories', { name: 'Anonymous' }, {}),
      await api.post(`/categories/${created.id}`, { name: 'x' }, {}),
      await api.put(`/categories/${created.id}`, { name: 'x' }, {}),
      await api.patch(`/categories/${created.id}`, { name: 'x' }, {}),
      await api.delete(`/categories/${created.id}`, {}),
    ];
    for (const res of attempts) {
      expectError(res, 401, 'rest_unauthorized');
      expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
    }
    expect((await api.get(`/categories/${created.id}`)).body.name).to.equal(created.name);
  });

  it('answers 404 rest-category-not-found for an unknown ID and 400 rest-invalid-category-id for a tag ID', async () => {
    const missing = await api.get('/categories/987654321');
    expectError(missing, 404, 'rest-category-not-found');
    expect(missing.body.message).to.include('987654321');
    expectError(await api.patch('/categories/987654321', { name: 'x' }), 404, 'rest-category-not-found');
    expectError(await api.delete('/categories/987654321'), 404, 'rest-category-not-found');

    const tag = await createTerm('tag', { name: `Tagged ${uniqueToken()}` });
    for (const res of [
      await api.get(`/categories/${tag.id}`),
      await api.put(`/categories/${tag.id}`, { name: 'x' }),
      await api.delete(`/categories/${tag.id}`),
    ]) {
      expectError(res, 400, 'rest-invalid-category-id');
      expect(res.body.data.params).to.have.key('id');
    }
    expect((await api.get(`/tags/${tag.id}`)).body).to.deep.equal(tag);
  });

  it('has no slug routes, needs a numeric ID and answers 405 for other methods', async () => {
    const created = await createTerm('category', { name: `Routes ${uniqueToken()}` });
    expectError(await api.get(`/categories/by-slug/${created.slug}`), 404, 'rest_no_route');
    expectError(await api.get(`/categories/${created.slug}`), 404, 'rest_no_route');
    const wrong = await api.delete('/categories');
    expectError(wrong, 405, 'rest_method_not_allowed');
    expect(wrong.headers.get('allow')).to.include('POST');
  });
});

describe('categories: fields', () => {
  it('rejects a missing, empty, null or over-long name, naming it', async () => {
    expectMissing(await api.post('/categories', { description: 'no name' }), ['name']);
    expectInvalid(await api.post('/categories', { name: '' }), 'name');
    expectInvalid(await api.post('/categories', { name: '   ' }), 'name');
    expectInvalid(await api.post('/categories', { name: null }), 'name');
    expectInvalid(await api.post('/categories', { name: 'x'.repeat(201) }), 'name');
    expectInvalid(await api.post('/categories', { name: { $ne: '' } }), 'name');
    expectInvalid(await api.post('/categories', { name: 'bell\u0007' }), 'name');
  });

  it('never lets an update clear the name', async () => {
    const created = await createTerm('category', { name: `Keep ${uniqueToken()}` });
    expectInvalid(await api.patch(`/categories/${created.id}`, { name: '' }), 'name');
    expectInvalid(await api.put(`/categories/${created.id}`, { name: null }), 'name');
    expect((await api.get(`/categories/${created.id}`)).body).to.deep.equal(created);
  });

  it('sanitises the description, clears it with null or "", and bounds its length', async () => {
    const created = await createTerm('category', {
      name: `Safe ${uniqueToken()}`,
      description:
        '<p onclick="x()">Hi <a href="javascript:alert(1)">there</a><script>alert(1)</script> <a href="https://ok.example/">ok</a></p>',
    });
    expect(created.description).to.equal('<p>Hi <a>there</a> <a href="https://ok.example/">ok</a></p>');
    const cleared = await api.patch(`/categories/${created.id}`, { description: null });
    expect(cleared.status).to.equal(200);
    expect(cleared.body).to.deep.equal({ ...created, description: null });
    const set = await api.patch(`/categories/${created.id}`, { description: 'Plain' });
    expect(set.body.description).to.equal('Plain');
    expect((await api.patch(`/categories/${created.id}`, { description: '' })).body.description).to.equal(null);
    expectInvalid(await api.patch(`/categories/${created.id}`, { description: 'x'.repeat(20_001) }), 'description');
    // 4001 characters as sent, 20005 once & is written &amp;: what is stored must be accepted back.
    expectInvalid(await api.patch(`/categories/${created.id}`, { description: '&'.repeat(4_001) }), 'description');
    expectInvalid(await api.patch(`/categories/${created.id}`, { description: ['a'] }), 'description');
  });

  it('generates slugs from the name, unique per language with -2, -3 suffixes', async () => {
    const t = uniqueToken();
    const first = await createTerm('category', { name: `Café Concerts ${t}` });
    const second = await createTerm('category', { name: `Cafe concerts ${t}` });
    const third = await createTerm('category', { name: `CAFÉ CONCERTS ${t}` });
    expect([first.slug, second.slug, third.slug]).to.deep.equal([
      `cafe-concerts-${t}`,
      `cafe-concerts-${t}-2`,
      `cafe-concerts-${t}-3`,
    ]);
    const french = await createTerm('category', { name: `Café Concerts ${t}`, i18n_language: 'fr' });
    expect(french.slug).to.equal(`cafe-concerts-${t}`);
    expect(french.i18n_language).to.equal('fr');
  });

  it('accepts a sent slug (slugified), suffixes a taken one, and regenerates a cleared one', async () => {
    const t = uniqueToken();
    const mine = await createTerm('category', { name: `Named ${t}`, slug: `My Own Slug ${t}` });
    expect(mine.slug).to.equal(`my-own-slug-${t}`);
    expect(mine.url).to.equal(`${testWorld().config.siteUrl}/events/category/my-own-slug-${t}/`);
    const other = await createTerm('category', { name: `Other ${t}` });
    const taken = await api.patch(`/categories/${other.id}`, { slug: `my-own-slug-${t}` });
    expect(taken.status).to.equal(200);
    expect(taken.body).to.deep.equal(
      expectedTerm('category', { id: other.id, name: `Other ${t}`, slug: `my-own-slug-${t}-2` }),
    );
    const regenerated = await api.patch(`/categories/${mine.id}`, { slug: '' });
    expect(regenerated.body.slug).to.equal(`named-${t}`);
    expectInvalid(await api.patch(`/categories/${mine.id}`, { slug: 'x'.repeat(201) }), 'slug');
    expectInvalid(await api.patch(`/categories/${mine.id}`, { slug: 12 }), 'slug');
  });

  it('updates with POST, PUT and PATCH alike: only the fields sent change', async () => {
    const t = uniqueToken();
    const created = await createTerm('category', { name: `Merge ${t}`, description: 'Kept' });
    const posted = await api.post(`/categories/${created.id}`, { name: `Merged ${t}` });
    expect(posted.status).to.equal(200);
    expect(posted.body).to.deep.equal({ ...created, name: `Merged ${t}` });
    const put = await api.put(`/categories/${created.id}`, { description: 'Changed' });
    expect(put.body).to.deep.equal({ ...created, name: `Merged ${t}`, description: 'Changed' });
    const patched = await api.patch(`/categories/${created.id}`, { slug: `merged-${t}`, unknown_field: 'ignored' });
    expect(patched.body).to.deep.equal(
      expectedTerm('category', { id: created.id, name: `Merged ${t}`, slug: `merged-${t}`, description: 'Changed' }),
    );
    expect((await api.get(`/categories/${created.id}`)).body).to.deep.equal(patched.body);
  });

  it('ignores derived values a client sends (count, url)', async () => {
    const created = await createTerm('category', {
      name: `Derived ${uniqueToken()}`,
      count: 99,
      url: 'http://evil.example/',
    });
    expect(created.count).to.equal(0);
    expect(created.url).to.match(/^http:\/\/calendar\.test\/events\/category\//);
  });
});

describe('categories: translations', () => {
  it('keeps one document per language, falling back to the original', async () => {
    const t = uniqueToken();
    const created = await createTerm('category', { name: `Music ${t}`, description: 'Loud' });
    const fr = await request('PATCH', `/fr${ROOT}/categories/${created.id}`, { name: `Musique ${t}` }, { key: true });
    expect(fr.status).to.equal(200);
    // The translation starts from the original content: the description is copied.
    const expectedFr = expectedTerm('category', {
      id: created.id,
      name: `Musique ${t}`,
      slug: `musique-${t}`,
      description: 'Loud',
      lang: 'fr',
      langs: ['en', 'fr'],
    });
    expect(fr.body).to.deep.equal(expectedFr);
    const expectedEn = expectedTerm('category', {
      id: created.id,
      name: `Music ${t}`,
      slug: `music-${t}`,
      description: 'Loud',
      langs: ['en', 'fr'],
    });
    expect((await api.get(`/categories/${created.id}`)).body).to.deep.equal(expectedEn);
    expect((await api.get(`/categories/${created.id}?i18n_language=fr`)).body).to.deep.equal(expectedFr);
    expect((await request('GET', `/de${ROOT}/categories/${created.id}`)).body).to.deep.equal(expectedEn);

    const frDescription = await api.patch(`/categories/${created.id}`, { description: 'Fort', i18n_language: 'fr' });
    expect(frDescription.body.description).to.equal('Fort');
    expect((await api.get(`/categories/${created.id}`)).body.description).to.equal('Loud');
  });

  it('shares parent across languages', async () => {
    const t = uniqueToken();
    const parent = await createTerm('category', { name: `Arts ${t}` });
    const child = await createTerm('category', { name: `Dance ${t}` });
    await request('PATCH', `/de${ROOT}/categories/${child.id}`, { name: `Tanz ${t}` }, { key: true });
    const moved = await request('PATCH', `/fr${ROOT}/categories/${child.id}`, { parent: parent.id }, { key: true });
    expect(moved.body).to.deep.equal(
      expectedTerm('category', {
        id: child.id,
        name: `Dance ${t}`,
        slug: `dance-${t}`,
        parent: parent.id,
        lang: 'fr',
        langs: ['en', 'fr', 'de'],
      }),
    );
    for (const lang of ['en', 'de']) {
      const res = await api.get(`/categories/${child.id}?i18n_language=${lang}`);
      expect(res.body.parent, lang).to.equal(parent.id);
      expect(res.body.urls.up).to.equal(`${testWorld().config.apiUrl}${ROOT}/categories/${parent.id}`);
    }
  });
});

describe('categories: parent', () => {
  it('accepts an existing category or 0 (null clears)', async () => {
    const t = uniqueToken();
    const root = await createTerm('category', { name: `Root ${t}` });
    const child = await createTerm('category', { name: `Child ${t}`, parent: root.id });
    expect(child).to.deep.equal(
      expectedTerm('category', { id: child.id, name: `Child ${t}`, slug: `child-${t}`, parent: root.id }),
    );
    const zero = await api.patch(`/categories/${child.id}`, { parent: 0 });
    expect(zero.body).to.deep.equal(expectedTerm('category', { id: child.id, name: `Child ${t}`, slug: `child-${t}` }));
    await api.patch(`/categories/${child.id}`, { parent: root.id });
    const cleared = await api.patch(`/categories/${child.id}`, { parent: null });
    expect(cleared.body.parent).to.equal(0);
    expect(cleared.body.urls).to.not.have.key('up');
    const top = await createTerm('category', { name: `Top ${t}`, parent: 0 });
    expect(top.parent).to.equal(0);
  });

  it('rejects an unknown parent, a tag as parent and a malformed parent, naming parent', async () => {
    const tag = await createTerm('tag', { name: `Not a parent ${uniqueToken()}` });
    for (const parent of [987654321, tag.id, -1, 1.5, 'abc', { $gt: 0 }]) {
      const res = await api.post('/categories', { name: `Orphan ${uniqueToken()}`, parent });
      expectInvalid(res, 'parent');
    }
    const named = async (parent: number) =>
      (await api.post('/categories', { name: `Orphan ${uniqueToken()}`, parent })).body.data.params.parent;
    expect(await named(987654321)).to.equal('there is no category with ID 987654321');
    expect(await named(tag.id)).to.equal(`${tag.id} is a tag ID, not a category ID`);
  });

  it('rejects making a category its own parent or ancestor, naming parent', async () => {
    const t = uniqueToken();
    const a = await createTerm('category', { name: `A ${t}` });
    const b = await createTerm('category', { name: `B ${t}`, parent: a.id });
    const c = await createTerm('category', { name: `C ${t}`, parent: b.id });
    const self = await api.patch(`/categories/${a.id}`, { parent: a.id });
    expectInvalid(self, 'parent');
    expect(self.body.data.params.parent).to.equal('a category cannot be its own parent');
    const cycle = await api.patch(`/categories/${a.id}`, { parent: c.id });
    expectInvalid(cycle, 'parent');
    expect(cycle.body.data.params.parent).to.equal(
      `category ${c.id} is below category ${a.id} in the hierarchy: a category cannot become its own ancestor`,
    );
    expect((await api.get(`/categories/${a.id}`)).body.parent).to.equal(0);
    // Moving within the tree without a cycle is fine.
    const moved = await api.patch(`/categories/${c.id}`, { parent: a.id });
    expect(moved.body.parent).to.equal(a.id);
  });
});

describe('categories: count and delete', () => {
  it('counts published events using the category, once per event', async () => {
    const { services } = testWorld();
    const category = await createTerm('category', { name: `Counted ${uniqueToken()}` });
    const other = await createTerm('category', { name: `Other ${uniqueToken()}` });
    const first = await publishedEvent({ categories: [category.id, other.id] });
    const record = await services.stores.events.get(first);
    await services.stores.events.update(record!, 'fr', { title: 'Traduit' } as never);
    await services.stores.events.update((await services.stores.events.get(first))!, 'de', {
      title: 'Übersetzt',
    } as never);
    await publishedEvent({ categories: [category.id] });
    await publishedEvent({ categories: [category.id], status: 'draft' });
    await publishedEvent({ categories: [category.id], status: 'trash' });
    await publishedEvent({ tags: [category.id] });
    const res = await api.get(`/categories/${category.id}`);
    expect(res.body).to.deep.equal({ ...category, count: 2 });
    expect((await api.get(`/categories/${other.id}`)).body.count).to.equal(1);
  });

  it('deletes permanently: 200 with the term, then 404, unlinked from every event', async () => {
    const { services } = testWorld();
    const t = uniqueToken();
    const doomed = await createTerm('category', { name: `Doomed ${t}` });
    const kept = await createTerm('category', { name: `Kept ${t}` });
    await request('PATCH', `/fr${ROOT}/categories/${doomed.id}`, { name: `Condamné ${t}` }, { key: true });
    const eventId = await publishedEvent({ categories: [kept.id, doomed.id] });
    await services.stores.events.update((await services.stores.events.get(eventId))!, 'fr', { title: 'FR' } as never);

    const res = await api.delete(`/categories/${doomed.id}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(
      expectedTerm('category', {
        id: doomed.id,
        name: `Doomed ${t}`,
        slug: `doomed-${t}`,
        count: 1,
        langs: ['en', 'fr'],
      }),
    );
    expectError(await api.get(`/categories/${doomed.id}`), 404, 'rest-category-not-found');
    expectError(await api.delete(`/categories/${doomed.id}`), 404, 'rest-category-not-found');
    const event = await services.stores.events.get(eventId);
    expect(event!.docs.en!.categories).to.deep.equal([kept.id]);
    expect(event!.docs.fr!.categories).to.deep.equal([kept.id]);
    expect((await api.get(`/categories/${kept.id}`)).body.count).to.equal(1);
  });

  it('moves the children of a deleted category up to its parent', async () => {
    const t = uniqueToken();
    const grandparent = await createTerm('category', { name: `Grand ${t}` });
    const middle = await createTerm('category', { name: `Middle ${t}`, parent: grandparent.id });
    const left = await createTerm('category', { name: `Left ${t}`, parent: middle.id });
    const right = await createTerm('category', { name: `Right ${t}`, parent: middle.id });
    expect((await api.delete(`/categories/${middle.id}`)).body.parent).to.equal(grandparent.id);
    for (const child of [left, right]) {
      const res = await api.get(`/categories/${child.id}`);
      expect(res.body).to.deep.equal({
        ...child,
        parent: grandparent.id,
        urls: { ...child.urls, up: grandparent.rest_url },
      });
    }
    await api.delete(`/categories/${grandparent.id}`);
    expect((await api.get(`/categories/${left.id}`)).body.parent).to.equal(0);
  });
});
