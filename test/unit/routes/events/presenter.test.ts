import { expect } from 'chai';
import { presentEvent, type EventLinks } from '../../../../src/presenters/event';
import type { StoredRecord } from '../../../../src/storage/storedRecord';
import type { EventDoc } from '../../../../src/storage/stores';

const env = {
  apiUrl: 'http://api.example',
  siteUrl: 'https://www.site.example:8443/calendar',
  timezone: 'UTC',
  defaultLanguage: 'en' as const,
};
const when = new Date('2025-01-01T00:00:00Z');

function record(fields: Partial<EventDoc> = {}): StoredRecord<EventDoc> {
  const doc: EventDoc = {
    _id: '12:en',
    id: 12,
    lang: 'en',
    originalLang: 'en',
    slug: 'party',
    createdAt: when,
    modifiedAt: when,
    status: 'publish',
    author: 3,
    date: when,
    description: null,
    excerpt: null,
    image: null,
    title: 'Party',
    start: new Date('2025-02-01T20:00:00Z'),
    end: new Date('2025-02-01T23:00:00Z'),
    timezone: 'Europe/Berlin',
    all_day: false,
    cost: null,
    website: null,
    show_map: null,
    show_map_link: null,
    hide_from_listings: false,
    sticky: false,
    featured: false,
    ticketed: false,
    post_parent: 0,
    passwordHash: 'aa:bb',
    venues: [],
    organizers: [],
    categories: [],
    tags: [],
    ...fields,
  };
  return { id: 12, originalLang: 'en', docs: { en: doc } };
}

const noLinks = (): EventLinks => ({
  venues: new Map(),
  organizers: new Map(),
  categories: new Map(),
  tags: new Map(),
});

describe('routes/events/presenter', () => {
  it('presents ids, dates, website fallback and never the password', () => {
    const event = presentEvent(record(), 'fr', env, noLinks());
    expect(event).to.include({
      id: 12,
      global_id: 'www.site.example:8443?id=12',
      title: 'Party',
      start_date: '2025-02-01 21:00:00',
      utc_start_date: '2025-02-01 20:00:00',
      timezone_abbr: 'CET',
      website: 'https://www.site.example:8443/calendar/event/party/',
      show_map: false,
      i18n_language: 'en',
    });
    expect(event.venue).to.deep.equal([]);
    expect(JSON.stringify(event)).to.not.match(/password|aa:bb/i);
  });

  it('embeds linked records in stored order, skipping those not supplied', () => {
    const links = noLinks();
    links.venues.set(5, { id: 5, show_map: false, show_map_link: null });
    links.venues.set(6, { id: 6 });
    links.organizers.set(7, { id: 7 });
    links.tags.set(9, { id: 9 });
    const one = presentEvent(record({ venues: [5], organizers: [8, 7], tags: [9, 10] }), 'en', env, links);
    expect(one.venue).to.deep.equal({ id: 5, show_map: false, show_map_link: null });
    expect(one.organizer).to.deep.equal([{ id: 7 }]);
    expect(one.tags).to.deep.equal([{ id: 9 }]);
    expect([one.show_map, one.show_map_link]).to.deep.equal([false, true]);
    const two = presentEvent(record({ venues: [6, 5], show_map: true }), 'en', env, links);
    expect(two.venue).to.deep.equal([{ id: 6 }, { id: 5, show_map: false, show_map_link: null }]);
    expect(two.show_map).to.equal(true);
  });
});
