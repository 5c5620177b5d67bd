import { expect } from 'chai';
import { buildEventSearch, type EventQuery } from '../../../src/search/eventQuery';
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
      from: 0,
      size: 6,
    });
    const json = JSON.stringify(request.query);
    expect(json).to.include('"must_not":[{"range":{"published_events":{"gt":0}}}]');
    expect(json).to.include('"events_end_max":{"gt":"2026-01-01T00:00:00.000Z"}');
    expect(request.sort).to.deep.equal([{ 'name.sort': { order: 'asc' } }, { id: { order: 'asc' } }]);
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
});
