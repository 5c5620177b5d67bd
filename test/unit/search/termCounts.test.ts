import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import type { estypes } from '@elastic/elasticsearch';
import type { Services } from '../../../src/services/container';
import { withCurrentTermCounts } from '../../../src/services/queries/termCounts';

/** Services whose search index holds `counts` (`category:1` → 5) and records every lookup. */
function fakeServices(counts: Record<string, number>, fail: () => boolean = () => false) {
  const lookups: { index: string; ids: string[] }[] = [];
  const search = async (request: estypes.SearchRequest) => {
    const index = request.index as string;
    const ids = (request.query as { ids: { values: string[] } }).ids.values;
    lookups.push({ index, ids: [...ids].sort() });
    await new Promise((resolve) => setImmediate(resolve));
    if (fail()) throw Object.assign(new Error('down'), { name: 'ConnectionError' });
    const kind = index.includes('categories') ? 'category' : 'tag';
    const hits = ids
      .filter((id) => `${kind}:${id}` in counts)
      .map((id) => ({ _id: id, _source: { count: counts[`${kind}:${id}`] } }));
    return { hits: { hits } };
  };
  const services = {
    config: { elasticsearch: { indexPrefix: 't', timeoutMs: 1000 } },
    search: { search },
    sync: new EventEmitter(),
  } as unknown as Services;
  return { services, lookups };
}

const event = (categories: number[], tags: number[] = []) => ({
  id: 1,
  categories: categories.map((id) => ({ id, count: 0 })),
  tags: tags.map((id) => ({ id, count: 0 })),
});
const countsOf = (events: Record<string, unknown>[], field: 'categories' | 'tags') =>
  events.map((e) => (e[field] as { count: number }[]).map((term) => term.count));

describe('search/termCounts withCurrentTermCounts', () => {
  it("replaces embedded counts with the index's, keeping those of terms it does not hold", async () => {
    const { services } = fakeServices({ 'category:1': 5, 'category:2': 7, 'tag:9': 3 });
    const listed = await withCurrentTermCounts(services, [event([1, 2], [9]), event([2, 4])], 'en');
    expect(countsOf(listed, 'categories')).to.deep.equal([
      [5, 7],
      [7, 0],
    ]);
    expect(countsOf(listed, 'tags')).to.deep.equal([[3], []]);
  });

  it('looks counts up once per kind and language while they are fresh, refreshing known terms with new ones', async () => {
    const { services, lookups } = fakeServices({ 'category:1': 1, 'category:2': 2, 'category:3': 3 });
    await withCurrentTermCounts(services, [event([1])], 'en');
    await withCurrentTermCounts(services, [event([1])], 'en');
    await withCurrentTermCounts(services, [event([2])], 'en');
    await withCurrentTermCounts(services, [event([1, 2])], 'en');
    await withCurrentTermCounts(services, [event([3])], 'fr');
    expect(lookups).to.deep.equal([
      { index: 't-categories-en', ids: ['1'] },
      { index: 't-categories-en', ids: ['1', '2'] },
      { index: 't-categories-fr', ids: ['3'] },
    ]);
  });

  it('shares one lookup between concurrent lists and forgets everything when this process writes', async () => {
    const { services, lookups } = fakeServices({ 'category:1': 1 });
    await Promise.all([1, 2, 3].map(() => withCurrentTermCounts(services, [event([1])], 'en')));
    expect(lookups).to.have.length(1);
    services.sync.emit('dirty');
    await withCurrentTermCounts(services, [event([1])], 'en');
    expect(lookups).to.have.length(2);
  });

  it('fails the list when the index is down, and looks up again on the next one', async () => {
    let down = true;
    const { services, lookups } = fakeServices({ 'category:1': 4 }, () => down);
    let failure: Error | undefined;
    await withCurrentTermCounts(services, [event([1])], 'en').catch((err: Error) => (failure = err));
    expect(failure?.name).to.equal('DependencyUnavailableError');
    down = false;
    expect(countsOf(await withCurrentTermCounts(services, [event([1])], 'en'), 'categories')).to.deep.equal([[4]]);
    expect(lookups).to.have.length(2);
  });

  it('leaves events without terms as they are, without a lookup', async () => {
    const { services, lookups } = fakeServices({});
    const events = [event([])];
    expect(await withCurrentTermCounts(services, events, 'en')).to.equal(events);
    expect(lookups).to.deep.equal([]);
  });
});
