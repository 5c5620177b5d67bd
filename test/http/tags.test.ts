import { expect } from 'chai';
import { api, request, ROOT } from '../support/api';
import { expectError, expectInvalid, expectMissing } from '../support/errors';
import { testWorld } from '../support/harness';
import { createTerm, expectedTerm, uniqueToken } from '../support/terms';
import { storeEvent } from '../support/records';

async function eventWithTags(tags: number[], status = 'publish'): Promise<number> {
  const created = await storeEvent('en', { title: `Event ${uniqueToken()}`, status, tags } as never);
  return created.id;
}

describe('tags: create and read', () => {
  it('creates a tag: 201, Location, the full record', async () => {
    const t = uniqueToken();
    const res = await api.post('/tags', { name: `Outdoor ${t}`, description: '<em>Fresh</em> air' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const expected = expectedTerm('tag', {
      id: res.body.id,
      name: `Outdoor ${t}`,
      slug: `outdoor-${t}`,
      description: '<em>Fresh</em> air',
    });
    expect(res.body).to.deep.equal(expected);
    expect(res.headers.get('location')).to.equal(expected.rest_url);
    expect(res.body.url).to.equal(`${testWorld().config.siteUrl}/events/tag/outdoor-${t}/`);
  });

  it('reads a tag under every root, and creates in the prefix language', async () => {
    const t = uniqueToken();
    const created = await createTerm('tag', { name: `Family ${t}` });
    for (const root of ['', '/en', '/fr', '/de']) {
      const res = await request('GET', `${root}${ROOT}/tags/${created.id}`);
      expect(res.status, root).to.equal(200);
      expect(res.headers.get('content-language')).to.equal(root.slice(1) || 'en');
      expect(res.body, root).to.deep.equal(created);
    }
    const de = await request('POST', `/de${ROOT}/tags`, { name: `Familie ${t}` }, { key: true });
    expect(de.status).to.equal(201);
    expect(de.body).to.deep.equal(
      expectedTerm('tag', { id: de.body.id, name: `Familie ${t}`, slug: `familie-${t}`, lang: 'de' }),
    );
  });

  it('has no parent: a sent parent is ignored and parent is always 0', async () => {
    const t = uniqueToken();
    const category = await createTerm('category', { name: `Cat ${t}` });
    const tag = await createTerm('tag', { name: `Flat ${t}`, parent: category.id });
    expect(tag).to.deep.equal(expectedTerm('tag', { id: tag.id, name: `Flat ${t}`, slug: `flat-${t}` }));
    const updated = await api.patch(`/tags/${tag.id}`, { parent: category.id });
    expect(updated.body).to.deep.equal(tag);
  });

  it('requires a key for every write: 401 rest_unauthorized', async () => {
    const tag = await createTerm('tag', { name: `Locked ${uniqueToken()}` });
    for (const res of [
      await api.post('/tags', { name: 'Anonymous' }, {}),
      await api.post(`/tags/${tag.id}`, { name: 'x' }, {}),
      await api.put(`/tags/${tag.id}`, { name: 'x' }, {}),
      await api.patch(`/tags/${tag.id}`, { name: 'x' }, {}),
      await api.delete(`/tags/${tag.id}`, {}),
    ]) {
      expectError(res, 401, 'rest_unauthorized');
      expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
    }
    expect((await api.get(`/tags/${tag.id}`)).body).to.deep.equal(tag);
  });

  it('answers 404 rest-tag-not-found for an unknown ID and 400 rest-invalid-tag-id for a category ID', async () => {
    expectError(await api.get('/tags/987654321'), 404, 'rest-tag-not-found');
    expectError(await api.post('/tags/987654321', { name: 'x' }), 404, 'rest-tag-not-found');
    const category = await createTerm('category', { name: `Category ${uniqueToken()}` });
    for (const res of [
      await api.get(`/tags/${category.id}`),
      await api.patch(`/tags/${category.id}`, { name: 'x' }),
      await api.delete(`/tags/${category.id}`),
    ]) {
      expectError(res, 400, 'rest-invalid-tag-id');
    }
    expect((await api.get(`/categories/${category.id}`)).body).to.deep.equal(category);
    expectError(await api.get('/tags/by-slug/anything'), 404, 'rest_no_route');
  });
});

describe('tags: fields and translations', () => {
  it('validates name, description and slug, naming each bad one', async () => {
    expectMissing(await api.post('/tags', {}), ['name']);
    expectInvalid(
      await api.post('/tags', { name: '', description: 'x'.repeat(20_001), slug: 'y'.repeat(201) }),
      'name',
      'description',
      'slug',
    );
    const tag = await createTerm('tag', { name: `Valid ${uniqueToken()}` });
    expectInvalid(await api.put(`/tags/${tag.id}`, { name: null }), 'name');
    expectInvalid(await api.patch(`/tags/${tag.id}`, { i18n_language: 'es' }), 'i18n_language');
  });

  it('updates with POST, PUT and PATCH, merging; slugs collide with -2', async () => {
    const t = uniqueToken();
    const first = await createTerm('tag', { name: `Rock ${t}` });
    const second = await createTerm('tag', { name: `Rock ${t}` });
    expect(second.slug).to.equal(`rock-${t}-2`);
    const posted = await api.post(`/tags/${second.id}`, { name: `Roll ${t}` });
    expect(posted.body).to.deep.equal({ ...second, name: `Roll ${t}` });
    const put = await api.put(`/tags/${second.id}`, { description: '<script>x</script><p>Loud</p>' });
    expect(put.body).to.deep.equal({ ...second, name: `Roll ${t}`, description: '<p>Loud</p>' });
    const patched = await api.patch(`/tags/${second.id}`, { slug: '' });
    expect(patched.body).to.deep.equal({
      ...second,
      name: `Roll ${t}`,
      description: '<p>Loud</p>',
      slug: `roll-${t}`,
      url: first.url.replace(`rock-${t}`, `roll-${t}`),
    });
  });

  it('keeps per-language names and slugs, falling back to the original language', async () => {
    const t = uniqueToken();
    const tag = await createTerm('tag', { name: `Free ${t}` });
    const fr = await api.patch(`/tags/${tag.id}`, { name: `Gratuit ${t}`, i18n_language: 'fr' });
    const expectedFr = expectedTerm('tag', {
      id: tag.id,
      name: `Gratuit ${t}`,
      slug: `gratuit-${t}`,
      lang: 'fr',
      langs: ['en', 'fr'],
    });
    expect(fr.body).to.deep.equal(expectedFr);
    expect((await request('GET', `/fr${ROOT}/tags/${tag.id}`)).body).to.deep.equal(expectedFr);
    const en = expectedTerm('tag', { id: tag.id, name: `Free ${t}`, slug: `free-${t}`, langs: ['en', 'fr'] });
    expect((await api.get(`/tags/${tag.id}`)).body).to.deep.equal(en);
    expect((await api.get(`/tags/${tag.id}?i18n_language=de`)).body).to.deep.equal(en);
  });
});

describe('tags: count and delete', () => {
  it('counts published events only, once per event', async () => {
    const { services } = testWorld();
    const tag = await createTerm('tag', { name: `Popular ${uniqueToken()}` });
    const id = await eventWithTags([tag.id]);
    await services.stores.events.update((await services.stores.events.get(id))!, 'fr', { title: 'FR' } as never);
    await eventWithTags([tag.id]);
    await eventWithTags([tag.id], 'draft');
    await eventWithTags([tag.id], 'pending');
    expect((await api.get(`/tags/${tag.id}`)).body).to.deep.equal({ ...tag, count: 2 });
  });

  it('deletes permanently: 200 with the term, then 404, unlinked from every event', async () => {
    const { services } = testWorld();
    const t = uniqueToken();
    const doomed = await createTerm('tag', { name: `Gone ${t}` });
    const kept = await createTerm('tag', { name: `Stays ${t}` });
    const eventId = await eventWithTags([doomed.id, kept.id]);
    const draftId = await eventWithTags([doomed.id], 'draft');
    const res = await api.delete(`/tags/${doomed.id}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ ...doomed, count: 1 });
    expectError(await api.get(`/tags/${doomed.id}`), 404, 'rest-tag-not-found');
    expect((await services.stores.events.get(eventId))!.docs.en!.tags).to.deep.equal([kept.id]);
    expect((await services.stores.events.get(draftId))!.docs.en!.tags).to.deep.equal([]);
  });
});
