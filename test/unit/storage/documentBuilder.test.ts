import { expect } from 'chai';
import { DocumentBuilder } from '../../../src/storage/documentBuilder';

describe('storage/DocumentBuilder', () => {
  const events = new DocumentBuilder(['title', 'description'], 'title');
  const now = new Date('2031-05-10T20:00:00Z');

  it('splits content into per-language and shared fields, the slug per language, dropping undefined', () => {
    expect(events.split({ title: 'Jazz', slug: 'jazz', cost: '10', description: undefined } as never)).to.deep.equal({
      own: { title: 'Jazz', slug: 'jazz' },
      shared: { cost: '10' },
    });
  });

  it('builds an original document and a translation that keeps the shared fields', () => {
    const original = events.original(7, 'en', { title: 'Jazz', cost: '10' } as never, now);
    expect(original).to.deep.equal({
      _id: '7:en',
      id: 7,
      lang: 'en',
      originalLang: 'en',
      title: 'Jazz',
      cost: '10',
      createdAt: now,
      modifiedAt: now,
    });
    const later = new Date('2031-05-11T00:00:00Z');
    expect(events.translation(original, 'fr', { title: 'Soirée jazz' }, later)).to.deep.equal({
      ...original,
      _id: '7:fr',
      lang: 'fr',
      title: 'Soirée jazz',
      createdAt: later,
    });
  });

  it('gives a bulk-loaded document the slug sent, else its name suffixed with the ID, else the ID', () => {
    expect(events.bulkSlug({ slug: 'Café Zürich' }, { title: 'x' }, 9)).to.equal('cafe-zurich');
    expect(events.bulkSlug({}, { title: 'Jazz Night' }, 9)).to.equal('jazz-night-9');
    expect(events.bulkSlug({}, { title: '!!!' }, 9)).to.equal('9');
  });
});
