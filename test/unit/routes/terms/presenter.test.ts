import { expect } from 'chai';
import { presentTerm } from '../../../../src/presenters/term';
import type { StoredRecord } from '../../../../src/storage/storedRecord';
import type { TermDoc } from '../../../../src/storage/stores';

const ENV = {
  apiUrl: 'https://api.example',
  siteUrl: 'https://site.example',
  timezone: 'Europe/Paris',
  defaultLanguage: 'en' as const,
};
const AT = new Date('2026-01-02T03:04:05Z');

function doc(lang: 'en' | 'fr' | 'de', fields: Partial<TermDoc>): TermDoc {
  return {
    _id: `7:${lang}`,
    id: 7,
    lang,
    originalLang: 'en',
    slug: 'music',
    createdAt: AT,
    modifiedAt: AT,
    name: 'Music',
    description: null,
    parent: 0,
    ...fields,
  };
}

const record = (docs: Partial<Record<'en' | 'fr' | 'de', TermDoc>>): StoredRecord<TermDoc> => ({
  id: 7,
  originalLang: 'en',
  docs,
});

describe('routes/terms/presentTerm', () => {
  it('presents a category in its own language with every contract field', () => {
    const body = presentTerm(
      'category',
      record({ en: doc('en', { description: '<p>Loud</p>', parent: 3 }) }),
      'en',
      ENV,
      4,
    );
    expect(body).to.deep.equal({
      id: 7,
      name: 'Music',
      slug: 'music',
      taxonomy: 'category',
      description: '<p>Loud</p>',
      parent: 3,
      count: 4,
      url: 'https://site.example/events/category/music/',
      rest_url: 'https://api.example/calendar/events/v1/categories/7',
      urls: {
        self: 'https://api.example/calendar/events/v1/categories/7',
        collection: 'https://api.example/calendar/events/v1/categories',
        up: 'https://api.example/calendar/events/v1/categories/3',
      },
      i18n_language: 'en',
      translations: { en: 'https://api.example/en/calendar/events/v1/categories/7' },
    });
  });

  it('shows the translation asked for, else falls back to the original language', () => {
    const both = record({
      en: doc('en', {}),
      fr: doc('fr', { name: 'Musique', slug: 'musique', description: 'Fort' }),
    });
    const fr = presentTerm('category', both, 'fr', ENV, 0);
    expect(fr).to.include({
      name: 'Musique',
      slug: 'musique',
      description: 'Fort',
      i18n_language: 'fr',
      url: 'https://site.example/events/category/musique/',
    });
    expect(fr.translations).to.deep.equal({
      en: 'https://api.example/en/calendar/events/v1/categories/7',
      fr: 'https://api.example/fr/calendar/events/v1/categories/7',
    });
    expect(presentTerm('category', both, 'de', ENV, 0)).to.include({ name: 'Music', i18n_language: 'en' });
  });

  it('gives tags parent 0, no up link and tag URLs, whatever is stored', () => {
    const body = presentTerm('tag', record({ en: doc('en', { parent: 5, slug: 'free entry' }) }), 'en', ENV, 0);
    expect(body.taxonomy).to.equal('tag');
    expect(body.parent).to.equal(0);
    expect(body.urls).to.deep.equal({
      self: 'https://api.example/calendar/events/v1/tags/7',
      collection: 'https://api.example/calendar/events/v1/tags',
    });
    expect(body.url).to.equal('https://site.example/events/tag/free%20entry/');
  });

  it('leaves out the up link of a top-level category and shows a missing description as null', () => {
    const body = presentTerm(
      'category',
      record({ en: { ...doc('en', {}), description: undefined as never } }),
      'en',
      ENV,
      0,
    );
    expect(body.urls).to.not.have.property('up');
    expect(body.description).to.equal(null);
    expect(body).to.not.have.any.keys('status', 'author', 'date');
  });
});
