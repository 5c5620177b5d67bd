import { expect } from 'chai';
import { occurrenceDocuments, toIndexDocument, type RelatedData } from '../../../src/search/documents';
import type { StoredRecord } from '../../../src/storage/storedRecord';
import type { EventDoc, TermDoc, VenueDoc } from '../../../src/storage/stores';

const at = new Date('2026-01-01T00:00:00Z');
const venue = (id: number, fields: Partial<VenueDoc>): StoredRecord<VenueDoc> => ({
  id,
  originalLang: 'en',
  docs: {
    en: {
      _id: `${id}:en`,
      id,
      lang: 'en',
      originalLang: 'en',
      slug: `v${id}`,
      createdAt: at,
      modifiedAt: at,
      venue: `Venue ${id}`,
      status: 'publish',
      geo_lat: null,
      geo_lng: null,
      ...fields,
    } as VenueDoc,
  },
});
const term = (id: number, name: string): StoredRecord<TermDoc> => ({
  id,
  originalLang: 'en',
  docs: {
    en: {
      _id: `${id}:en`,
      id,
      lang: 'en',
      originalLang: 'en',
      slug: name.toLowerCase(),
      createdAt: at,
      modifiedAt: at,
      name,
      description: null,
      parent: 0,
    },
  },
});
const related = (): RelatedData => ({
  venues: new Map([
    [1, venue(1, { geo_lat: 48.85, geo_lng: 2.35 })],
    [2, venue(2, { status: 'trash', geo_lat: 1, geo_lng: 1 })],
  ]),
  organizers: new Map(),
  categories: new Map([[5, term(5, 'Jazz')]]),
  tags: new Map(),
  eventStats: new Map(),
});
const event = (fields: Partial<EventDoc> = {}): StoredRecord<EventDoc> => ({
  id: 9,
  originalLang: 'en',
  docs: {
    en: {
      _id: '9:en',
      id: 9,
      lang: 'en',
      originalLang: 'en',
      slug: 'e',
      createdAt: at,
      modifiedAt: at,
      date: at,
      status: 'publish',
      author: 1,
      title: 'Night',
      description: '<p>Loud <b>music</b></p>',
      excerpt: null,
      image: null,
      start: new Date('2026-05-11T03:30:00Z'),
      end: new Date('2026-05-11T05:00:00Z'),
      timezone: 'America/New_York',
      all_day: false,
      cost: null,
      website: null,
      show_map: null,
      show_map_link: null,
      hide_from_listings: false,
      sticky: false,
      featured: true,
      ticketed: false,
      post_parent: 0,
      passwordHash: null,
      venues: [1, 2],
      organizers: [],
      categories: [5],
      tags: [],
      ...fields,
    } as EventDoc,
  },
});

describe('search/documents', () => {
  it('maps an event: plain text, names and location of live links, local and UTC dates, the API record as the view gave it', () => {
    const doc = toIndexDocument('event', event(), 'en', { id: 9, title: 'Night' }, related());
    expect(doc).to.deep.include({
      id: 9,
      series_id: 9,
      description: 'Loud music',
      venue_names: ['Venue 1'],
      category_names: ['Jazz'],
      category_slugs: ['jazz'],
      venue_ids: [1, 2],
      start_local: '2026-05-10T23:30:00',
      end_local: '2026-05-11T01:00:00',
      start_utc: '2026-05-11T03:30:00.000Z',
      has_location: true,
      location: [{ lat: 48.85, lon: 2.35 }],
      featured: true,
      password_protected: false,
      record: { id: 9, title: 'Night', occurrence: null },
    });
  });

  it("maps a series' occurrence: the series' document with the occurrence's dates and `occurrence`", () => {
    const stored = event();
    const series = toIndexDocument(
      'event',
      stored,
      'en',
      { id: 9, title: 'Night', rest_url: 'http://x/events/9' },
      related(),
    );
    const start = new Date('2026-05-18T03:30:00Z');
    const docs = occurrenceDocuments(series, stored, 'en', [
      { start, end: new Date('2026-05-18T05:00:00Z'), recurrenceId: '20260518T033000Z', index: 2 },
    ]);
    const doc = docs.get('9@20260518T033000Z');
    expect(doc).to.deep.include({
      series_id: 9,
      recurrence_id: '20260518T033000Z',
      start_utc: '2026-05-18T03:30:00.000Z',
      start_local: '2026-05-17T23:30:00',
      venue_ids: [1, 2],
    });
    expect(doc?.record).to.deep.include({
      title: 'Night',
      start_date: '2026-05-17 23:30:00',
      occurrence: {
        recurrence_id: '20260518T033000Z',
        series_id: 9,
        index: 2,
        rest_url: 'http://x/events/9/occurrences/20260518T033000Z',
      },
    });
  });

  it('filters by links to records that exist only: a trashed venue is linked, a deleted one is not', () => {
    const doc = toIndexDocument(
      'event',
      event({ venues: [1, 2, 77], organizers: [78], categories: [5, 79], tags: [80] }),
      'en',
      { id: 9 },
      related(),
    );
    expect(doc).to.deep.include({ venue_ids: [1, 2], organizer_ids: [], category_ids: [5], tag_ids: [] });
  });

  it('keeps the text of a protected event out of search', () => {
    const doc = toIndexDocument('event', event({ passwordHash: 'salt:hash' }), 'en', { id: 9 }, related());
    expect(doc).to.deep.include({
      description: null,
      excerpt: null,
      venue_names: [],
      password_protected: true,
      title: 'Night',
    });
  });

  it("changes a term's dependency fingerprint on a rename, not on a count change", () => {
    const stored = term(5, 'Jazz');
    const one = toIndexDocument('category', stored, 'en', { id: 5, name: 'Jazz', count: 1 }, related());
    const two = toIndexDocument('category', stored, 'en', { id: 5, name: 'Jazz', count: 2 }, related());
    const renamed = toIndexDocument('category', stored, 'en', { id: 5, name: 'Blues', count: 2 }, related());
    expect(one.count).to.equal(1);
    expect(one.deps).to.equal(two.deps);
    expect(renamed.deps).not.to.equal(two.deps);
  });

  it("changes an event's fingerprint when what its terms and places count changes", () => {
    const a = toIndexDocument('event', event(), 'en', { id: 9 }, related()).deps;
    const retitled = toIndexDocument('event', event({ title: 'Other' }), 'en', { id: 9 }, related()).deps;
    const drafted = toIndexDocument('event', event({ status: 'draft' }), 'en', { id: 9 }, related()).deps;
    expect(retitled).to.equal(a);
    expect(drafted).not.to.equal(a);
  });
});
