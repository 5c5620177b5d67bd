import { expect } from 'chai';
import { ValidationError } from '../../src/domain/errors';
import { planTermLinks, type TermRef } from '../../src/api/terms/resolveTerms';
import { api } from '../support/api';
import { testWorld } from '../support/harness';
import { createTerm, expectedTerm, uniqueToken } from '../support/terms';

/** planTermLinks against the real database (it is what event writes use for categories/tags). */
const resolve = async (taxonomy: 'category' | 'tag', refs: TermRef[], lang: 'en' | 'fr' | 'de' = 'en') =>
  (await planTermLinks(testWorld().services, taxonomy, refs, lang)).commit();

async function rejection(promise: Promise<unknown>): Promise<ValidationError> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    return err as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('planTermLinks', () => {
  it('creates the new terms only when the plan is committed', async () => {
    const name = `Planned ${uniqueToken()}`;
    const plan = await planTermLinks(testWorld().services, 'tag', [name], 'en');
    const stored = () => testWorld().services.stores.tags.docs.countDocuments({ name });
    expect(await stored()).to.equal(0);
    const [id] = await plan.commit();
    expect(await stored()).to.equal(1);
    expect(await resolve('tag', [name])).to.deep.equal([id]);
  });

  it('keeps IDs (numbers or digit strings) in order, without duplicates', async () => {
    const a = await createTerm('category', { name: `Ids A ${uniqueToken()}` });
    const b = await createTerm('category', { name: `Ids B ${uniqueToken()}` });
    expect(await resolve('category', [b.id, String(a.id), b.id, ` ${a.id} `])).to.deep.equal([b.id, a.id]);
    expect(await resolve('category', [])).to.deep.equal([]);
  });

  it('rejects unknown IDs, IDs of the other kind and non-positive IDs, naming the parameter', async () => {
    const tag = await createTerm('tag', { name: `Wrong kind ${uniqueToken()}` });
    const category = await createTerm('category', { name: `Right kind ${uniqueToken()}` });
    const unknown = await rejection(resolve('category', [category.id, 987654321]));
    expect(unknown.status).to.equal(400);
    expect(unknown.params).to.deep.equal({ categories: 'there is no category with ID 987654321.' });
    const wrong = await rejection(resolve('category', [tag.id]));
    expect(wrong.params).to.deep.equal({ categories: `${tag.id} is a tag ID, not a category ID.` });
    const wrongTag = await rejection(resolve('tag', [category.id]));
    expect(wrongTag.params).to.deep.equal({ tags: `${category.id} is a category ID, not a tag ID.` });
    // List filters say the same of an ID, and name an unknown slug.
    const listed = await api.get(`/events?categories=${tag.id},no-such-slug-${uniqueToken()}`);
    expect(listed.status).to.equal(400);
    expect(listed.body.data.params.categories).to.match(
      new RegExp(`^${tag.id} is a tag ID, not a category ID; there is no category with slug "no-such-slug-[^"]+"\\.$`),
    );
    for (const bad of [0, -3, 1.5]) expect((await rejection(resolve('tag', [bad]))).params).to.have.key('tags');
  });

  it('matches slugs, in the request language first, then any language', async () => {
    const t = uniqueToken();
    const en = await createTerm('category', { name: `Opera ${t}` });
    const fr = await createTerm('category', { name: `Opera ${t}`, i18n_language: 'fr' });
    expect(en.slug).to.equal(`opera-${t}`);
    expect(fr.slug).to.equal(`opera-${t}`);
    expect(await resolve('category', [`opera-${t}`], 'en')).to.deep.equal([en.id]);
    expect(await resolve('category', [`OPERA-${t}`], 'fr')).to.deep.equal([fr.id]);
    expect(await resolve('category', [`opera-${t}`], 'de')).to.deep.equal([en.id]);
  });

  it('matches names ignoring case (accents included), in the request language first', async () => {
    const t = uniqueToken();
    const en = await createTerm('tag', { name: `Café Live ${t}` });
    const fr = await createTerm('tag', { name: `Café Live ${t}`, i18n_language: 'fr' });
    expect(await resolve('tag', [`CAFÉ LIVE ${t}`], 'en')).to.deep.equal([en.id]);
    expect(await resolve('tag', [`café live ${t}`], 'fr')).to.deep.equal([fr.id]);
    expect(await resolve('tag', [`  Café live ${t} `], 'de')).to.deep.equal([en.id]);
    // A slug wins over a name: `shared-t` is one term's slug and another term's name.
    const slugOwner = await createTerm('tag', { name: `Owner ${t}`, slug: `shared-${t}` });
    const nameOwner = await createTerm('tag', { name: `shared-${t}` });
    expect(nameOwner.slug).to.equal(`shared-${t}-2`);
    expect(await resolve('tag', [`shared-${t}`])).to.deep.equal([slugOwner.id]);
  });

  it('creates a term for an unknown name, in the request language', async () => {
    const t = uniqueToken();
    const [id] = await resolve('category', [`Brand New ${t}`], 'fr');
    const res = await api.get(`/categories/${id}?i18n_language=fr`);
    expect(res.body).to.deep.equal(
      expectedTerm('category', { id: id!, name: `Brand New ${t}`, slug: `brand-new-${t}`, lang: 'fr' }),
    );
    expect(await resolve('category', [`brand new ${t}`], 'en')).to.deep.equal([id]);
    const [tagId] = await resolve('tag', [`Brand New ${t}`], 'en');
    expect(tagId).to.not.equal(id);
    expect((await api.get(`/tags/${tagId}`)).body.taxonomy).to.equal('tag');
  });

  it('resolves a mix of IDs, slugs and names in order', async () => {
    const t = uniqueToken();
    const byId = await createTerm('tag', { name: `Mix Id ${t}` });
    const bySlug = await createTerm('tag', { name: `Mix Slug ${t}` });
    const ids = await resolve('tag', [`mix-slug-${t}`, byId.id, `Mix New ${t}`, `MIX ID ${t}`]);
    expect(ids).to.have.length(3);
    expect(ids.slice(0, 2)).to.deep.equal([bySlug.id, byId.id]);
    expect((await api.get(`/tags/${ids[2]}`)).body.name).to.equal(`Mix New ${t}`);
  });

  it('rejects an empty or over-long name, naming the parameter', async () => {
    expect((await rejection(resolve('tag', ['   ']))).params).to.deep.equal({ tags: 'A term name cannot be empty.' });
    expect((await rejection(resolve('category', ['x'.repeat(201)]))).params).to.have.key('categories');
  });

  it('creates one term when ten requests name the same new term at once', async () => {
    const { services } = testWorld();
    const t = uniqueToken();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => resolve('tag', [i % 2 ? `Crowd ${t}` : `CROWD ${t}`])),
    );
    const ids = new Set(results.map(([id]) => id));
    expect(ids.size).to.equal(1);
    const docs = await services.stores.tags.docs.find({ slug: { $regex: new RegExp(`^crowd-${t}`) } }).toArray();
    expect(docs.map((doc) => doc.id)).to.deep.equal([...ids]);
  });

  it('takes the first free slug without spending IDs on the taken ones', async () => {
    const t = uniqueToken();
    const holders = [];
    for (const slug of [`d-${t}`, `d-${t}-2`, `d-${t}-3`])
      holders.push(await createTerm('tag', { name: `Holder ${slug}`, slug }));
    const counters = testWorld().services.db.collection<{ _id: string; seq: number }>('counters');
    const before = (await counters.findOne({ _id: 'term' }))!.seq;
    const [id] = await resolve('tag', [`D++ ${t}`]);
    expect((await counters.findOne({ _id: 'term' }))!.seq, 'term IDs taken').to.equal(before + 1);
    expect(id).to.equal(before + 1);
    expect(holders.map((holder) => holder.id)).to.not.include(id);
    expect((await api.get(`/tags/${id}`)).body.slug).to.equal(`d-${t}-4`);
  });

  it('creates one term at once even when the name slug belongs to another term', async () => {
    const { services } = testWorld();
    const t = uniqueToken();
    const plain = await createTerm('category', { name: `C ${t}` });
    const results = await Promise.all(Array.from({ length: 10 }, () => resolve('category', [`C++ ${t}`])));
    const ids = new Set(results.map(([id]) => id));
    expect(ids.size).to.equal(1);
    const [id] = [...ids];
    expect(id).to.not.equal(plain.id);
    const created = (await api.get(`/categories/${id}`)).body;
    expect(created).to.deep.equal(expectedTerm('category', { id: id!, name: `C++ ${t}`, slug: `c-${t}-2` }));
    const docs = await services.stores.categories.docs.find({ slug: { $regex: new RegExp(`^c-${t}`) } }).toArray();
    expect(docs.map((doc) => doc.id).sort((x, y) => x - y)).to.deep.equal([plain.id, id]);
  });
});
