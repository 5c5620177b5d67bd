import { expect } from 'chai';
import { loadConfig } from '../../../config';
import { suggestRequests } from '../../../src/services/queries/suggestions';

const config = loadConfig({ NODE_ENV: 'test', INDEX_PREFIX: 'cal' });
const anonymous = { lang: 'en' as const, principal: { keyId: null, userId: 0, role: null } };
const input = { search: 'jaz', per_page: 8 };

const requestsAt = (iso: string) => suggestRequests({ config }, input, anonymous, new Date(iso));

describe('services/suggestions: the msearch of GET /suggest', () => {
  it('asks Elasticsearch to keep every search in its request cache', () => {
    const { kinds, searches } = requestsAt('2026-11-28T10:00:30.000Z');
    expect(kinds).to.deep.equal(['events', 'venues', 'organizers', 'categories', 'tags']);
    const headers = searches.filter((_, i) => i % 2 === 0);
    expect(headers).to.have.length(5);
    for (const header of headers) expect(header).to.include({ request_cache: true });
  });

  it('leaves out events ended before the minute began, so that a minute asks the same searches', () => {
    const early = requestsAt('2026-11-28T10:00:00.000Z');
    const late = requestsAt('2026-11-28T10:00:59.999Z');
    expect(JSON.stringify(late.searches)).to.equal(JSON.stringify(early.searches));
    expect(JSON.stringify(early.searches[1])).to.include('{"range":{"end_utc":{"gte":"2026-11-28T10:00:00.000Z"}}}');
    const next = requestsAt('2026-11-28T10:01:00.000Z');
    expect(JSON.stringify(next.searches[1])).to.include('{"range":{"end_utc":{"gte":"2026-11-28T10:01:00.000Z"}}}');
  });
});
