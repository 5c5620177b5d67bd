import { expect } from 'chai';
import { buildEventSearch, seriesCountOf, type EventQuery } from '../../../src/search/eventQuery';
import { bucketCount, bucketsOf, type Discovery } from '../../../src/search/eventAggregations';
import { boolQuery } from '../../../src/search/fullText';
import { buildPostSearch } from '../../../src/search/postQuery';
import { buildTermSearch } from '../../../src/search/termQuery';
import { statusFilter } from '../../../src/search/visibilityFilters';
import { ValidationError } from '../../../src/domain/errors';

const anonymous = { keyId: null, userId: 0, role: null };
const base: EventQuery = {
  dates: [],
  status: { term: { status: 'publish' } },
  showHidden: false,
  orderby: 'start_date',
  from: 0,
  size: 6,
};

describe('search/queries', () => {
  it('orders events by start date then ID, and hides hidden events unless include names them', () => {
    const { request, distanceSortIndex } = buildEventSearch('events', base);
    expect(request.sort).to.deep.equal([{ start_utc: { order: 'asc' } }, { id: { order: 'asc' } }]);
    expect(distanceSortIndex).to.equal(null);
    expect(JSON.stringify(request.query)).to.include('"hide_from_listings":false');
    const included = buildEventSearch('events', { ...base, include: [3] }).request;
    expect(JSON.stringify(included.query)).not.to.include('hide_from_listings');
  });

  it('adds a distance sort to read each distance, first when ordering by distance', () => {
    const near = { lat: 1, lng: 2, radius: 25, unit: 'km' as const };
    const plain = buildEventSearch('events', { ...base, near });
    expect(plain.distanceSortIndex).to.equal(2);
    expect(JSON.stringify(plain.request.query)).to.include('"distance":"25km"');
    const byDistance = buildEventSearch('events', { ...base, near, orderby: 'distance', order: 'desc' });
    expect(byDistance.distanceSortIndex).to.equal(0);
    expect((byDistance.request.sort as object[])[0]).to.deep.include({
      _geo_distance: { location: { lat: 1, lon: 2 }, order: 'desc', mode: 'min', unit: 'km', distance_type: 'arc' },
    });
  });

  it('matches search text as text (match queries), never as query syntax', () => {
    const { request } = buildEventSearch('events', { ...base, search: 'title:* OR "x' });
    const json = JSON.stringify(request.query);
    expect(json).not.to.include('query_string');
    expect(json).to.include('"fuzziness":"AUTO"');
  });

  it('filters venues and organizers by events, upcoming and ids, ordered by name', () => {
    const request = buildPostSearch('venues', {
      status: { term: { status: 'publish' } },
      ids: [1],
      hasEvents: false,
      upcomingAfter: new Date('2026-01-01T00:00:00Z'),
      countProtected: false,
      from: 0,
      size: 6,
    });
    const json = JSON.stringify(request.query);
    expect(json).to.include('"must_not":[{"range":{"published_events":{"gt":0}}}]');
    expect(json).to.include('"events_end_max":{"gt":"2026-01-01T00:00:00.000Z"}');
    expect(json).not.to.include('protected_events');
    expect(request.sort).to.deep.equal([{ 'name.sort': { order: 'asc' } }, { id: { order: 'asc' } }]);
  });

  it('counts password-protected events in has_events and only_with_upcoming when asked (editors)', () => {
    const request = buildPostSearch('venues', {
      status: { term: { status: 'publish' } },
      hasEvents: true,
      upcomingAfter: new Date('2026-01-01T00:00:00Z'),
      countProtected: true,
      from: 0,
      size: 6,
    });
    const filter = (request.query as { bool: { filter: unknown[] } }).bool.filter;
    const after = '2026-01-01T00:00:00.000Z';
    expect(filter.slice(1)).to.deep.equal([
      {
        bool: {
          minimum_should_match: 1,
          should: [{ range: { published_events: { gt: 0 } } }, { range: { protected_events: { gt: 0 } } }],
        },
      },
      {
        bool: {
          minimum_should_match: 1,
          should: [
            { range: { events_end_max: { gt: after } } },
            { range: { protected_events_end_max: { gt: after } } },
          ],
        },
      },
    ]);
  });

  it('sorts terms by the requested attribute with ID as tie-breaker', () => {
    const request = buildTermSearch('tags', {
      hideEmpty: true,
      orderby: 'count',
      order: 'desc',
      exclude: [4],
      from: 0,
      size: 6,
    });
    expect(request.sort).to.deep.equal([{ count: { order: 'desc' } }, { id: { order: 'asc' } }]);
    expect(JSON.stringify(request.query)).to.include('"must_not":[{"terms":{"id":[4]}}]');
  });

  it('lets anonymous callers list publish only, authors also their own others, editors everything but trash by default', () => {
    expect(statusFilter(anonymous, undefined)).to.deep.equal({ terms: { status: ['publish'] } });
    expect(() => statusFilter(anonymous, ['draft'])).to.throw(ValidationError);
    const author = { keyId: 'k', userId: 7, role: 'author' as const };
    expect(JSON.stringify(statusFilter(author, ['draft']))).to.include('{"term":{"author":7}}');
    expect(JSON.stringify(statusFilter(author, ['trash']))).to.equal(
      '{"bool":{"minimum_should_match":1,"should":[{"bool":{"filter":[{"terms":{"status":["trash"]}},{"term":{"author":7}}],"should":[]}}]}}',
    );
    expect(JSON.stringify(statusFilter(author, undefined))).to.equal(
      '{"bool":{"minimum_should_match":1,"should":[{"terms":{"status":["publish"]}},' +
        '{"bool":{"filter":[{"terms":{"status":["future","draft","pending","private"]}},{"term":{"author":7}}],"should":[]}}]}}',
    );
    const editor = { keyId: 'k', userId: 1, role: 'editor' as const };
    expect(statusFilter(editor, undefined)).to.deep.equal({
      terms: { status: ['publish', 'future', 'draft', 'pending', 'private'] },
    });
    expect(statusFilter(editor, ['trash'])).to.deep.equal({ terms: { status: ['trash'] } });
  });

  describe('facets, histogram and series count (EXTENSIONS part 14)', () => {
    const discovery: Discovery = {
      facets: ['categories', 'tags', 'venue', 'featured'],
      histogram: { interval: 'day', timeZone: 'Europe/Paris' },
    };
    const shownLinks = { term: { password_protected: false } };
    const categories = { terms: { category_ids: [1] } };
    const featured = { term: { featured: true } };
    const terms = (field: string) => ({ terms: { field, size: 200 } });
    const series = { series: { cardinality: { field: 'series_id', precision_threshold: 40_000 } } };
    /** A list showing each series once counts series in each bucket. */
    const seriesTerms = (field: string) => ({
      terms: { field, size: 200, order: [{ series: 'desc' }, { _key: 'asc' }] },
      aggs: series,
    });
    const histogram = {
      date_histogram: {
        field: 'start_utc',
        calendar_interval: 'day',
        time_zone: 'Europe/Paris',
        min_doc_count: 1,
        format: 'yyyy-MM-dd HH:mm:ss',
      },
    };

    it('a filtered facet counts under the other filters; the rest count the listed matches under one filter', () => {
      const { request } = buildEventSearch('events', {
        ...base,
        categoryIds: [1],
        featured: true,
        shownLinks,
        discovery,
        collapseSeries: { entry: 'first' },
      });
      const listed = boolQuery({ filter: [categories, featured] });
      expect(request.post_filter).to.deep.equal(listed);
      expect(request.aggs).to.deep.equal({
        facet_categories: { filter: featured, aggs: { facet_categories: seriesTerms('category_ids') } },
        facet_featured: { filter: categories, aggs: { facet_featured: seriesTerms('featured') } },
        listed: {
          filter: listed,
          aggs: {
            series_count: { cardinality: { field: 'series_id', precision_threshold: 40_000 } },
            facet_tags: seriesTerms('tag_ids'),
            facet_venue: { filter: shownLinks, aggs: { facet_venue: seriesTerms('venue_ids') } },
            histogram: { ...histogram, aggs: series },
          },
        },
      });
    });

    it('without a facet filter, or without facets, everything counts under the query itself', () => {
      const unfiltered = buildEventSearch('events', { ...base, discovery }).request;
      expect(unfiltered.post_filter).to.equal(undefined);
      expect(unfiltered.aggs).to.deep.equal({
        facet_categories: terms('category_ids'),
        facet_tags: terms('tag_ids'),
        facet_venue: terms('venue_ids'),
        facet_featured: terms('featured'),
        histogram,
      });
      const calendar = { facets: [], histogram: discovery.histogram };
      const { request } = buildEventSearch('events', { ...base, categoryIds: [1], discovery: calendar });
      expect(request.post_filter).to.equal(undefined);
      expect(JSON.stringify(request.query)).to.include('"category_ids":[1]');
      expect(request.aggs).to.deep.equal({ histogram });
    });

    it('reads buckets and the series count wherever the search put them', () => {
      const buckets = [{ key: 3, doc_count: 2 }];
      const response = {
        aggregations: {
          facet_categories: { doc_count: 5, facet_categories: { buckets } },
          facet_featured: { buckets },
          listed: {
            doc_count: 4,
            facet_venue: { doc_count: 3, facet_venue: { buckets } },
            histogram: { buckets },
            series_count: { value: 2 },
          },
        },
      };
      for (const name of ['facet_categories', 'facet_featured', 'facet_venue', 'histogram'])
        expect(bucketsOf(response, name), name).to.deep.equal(buckets);
      expect(bucketCount(buckets[0]!)).to.equal(2);
      expect(bucketCount({ key: 3, doc_count: 9, series: { value: 2 } }), 'series counted').to.equal(2);
      expect(bucketsOf(response, 'facet_tags')).to.deep.equal([]);
      expect(seriesCountOf(response as never)).to.equal(2);
      expect(seriesCountOf({ aggregations: { series_count: { value: 7 } } } as never)).to.equal(7);
      expect(seriesCountOf({ aggregations: {} } as never)).to.equal(null);
    });
  });
});
