import { expect } from 'chai';
import { groupBySearch, searchKeyOf } from '../../../src/services/webhooks/subscriptionFilters';

describe('webhooks: subscriptions grouped by search', () => {
  it('the same filters in any key order and the same language are one search', () => {
    const a = { language: 'en' as const, filters: { search: 'jazz', categories: [3, 4], geoloc_lat: 45.7 } };
    const b = { language: 'en' as const, filters: { geoloc_lat: 45.7, categories: [3, 4], search: 'jazz' } };
    expect(searchKeyOf(a)).to.equal(searchKeyOf(b));
  });

  it('another language, value, list order or nested value is another search', () => {
    const base = { language: 'en' as const, filters: { search: 'jazz', categories: [3, 4] } };
    for (const other of [
      { ...base, language: 'fr' as const },
      { ...base, filters: { search: 'Jazz', categories: [3, 4] } },
      { ...base, filters: { search: 'jazz', categories: [4, 3] } },
      { ...base, filters: { search: 'jazz' } },
      { ...base, filters: { search: 'jazz', categories: [3, 4], featured: true } },
    ])
      expect(searchKeyOf(other), JSON.stringify(other)).to.not.equal(searchKeyOf(base));
  });

  it('groups keep every subscription, in order, each once', () => {
    const subs = [
      { _id: 1, language: 'en' as const, filters: { search: 'jazz' } },
      { _id: 2, language: 'en' as const, filters: { search: 'rock' } },
      { _id: 3, language: 'en' as const, filters: { search: 'jazz' } },
      { _id: 4, language: 'de' as const, filters: { search: 'jazz' } },
    ];
    expect(groupBySearch(subs).map((group) => group.map((s) => s._id))).to.deep.equal([[1, 3], [2], [4]]);
  });
});
