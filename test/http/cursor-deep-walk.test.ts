import { expect } from 'chai';
import { api } from '../support/api';
import { testWorld } from '../support/harness';
import { searchReady, writeIndexed } from '../support/lists';
import { aliasName } from '../../src/search/indexNames';

/**
 * A cursor walk far past the 10,000-result window. Creating 10,000 tags through MongoDB takes
 * minutes on jongodb, and a walk reads nothing but the index: the tags are written straight into
 * the tag index, as the worker would write them (only the fields the list filters, sorts and shows).
 */
const SEEDED = 10_200;
const FIRST_ID = 5_000_000;
const PAGE = 50;

const tagDocument = (id: number) => {
  const name = `deepwalk ${String(id).padStart(8, '0')}`;
  const slug = `deepwalk-${id}`;
  const record = { id, count: 0, description: '', name, slug, taxonomy: 'post_tag', parent: 0 };
  return { id, taxonomy: 'tag', name, slug, description: '', parent: 0, count: 0, record, deps: 'seeded' };
};

async function indexTags(ids: number[], remove: number[] = []): Promise<void> {
  const { services, config } = testWorld();
  const index = aliasName(config, 'tag', 'en');
  const operations = [
    ...ids.flatMap((id) => [{ index: { _index: index, _id: String(id) } }, tagDocument(id)]),
    ...remove.map((id) => ({ delete: { _index: index, _id: String(id) } })),
  ];
  const result = await services.search.bulk({ operations, refresh: true });
  expect(result.errors, JSON.stringify(result.items.find((item) => Object.values(item)[0]?.error))).to.equal(false);
}

async function walkTags(between?: (page: number) => Promise<void>): Promise<{ ids: number[]; records: unknown[] }> {
  const ids: number[] = [];
  const records: unknown[] = [];
  let cursor = '';
  for (let page = 1; ; page++) {
    const res = await api.get(`/tags?hide_empty=false&per_page=${PAGE}&cursor=${encodeURIComponent(cursor)}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    records.push(...res.body.tags);
    ids.push(...(res.body.tags as { id: number }[]).map((tag) => tag.id));
    if (res.body.next_cursor === null) return { ids, records };
    cursor = res.body.next_cursor;
    await between?.(page);
  }
}

describe('a cursor walk past 10,000 results (EXTENSIONS 16)', function () {
  this.timeout(180_000);

  before(async () => {
    await searchReady();
    const ids = Array.from({ length: SEEDED }, (_, i) => FIRST_ID + i);
    for (let i = 0; i < ids.length; i += 2_000) await indexTags(ids.slice(i, i + 2_000));
  });

  // Other test files share this world's tag index: the stand-in documents go when this file ends.
  after(async () => {
    const { services, config } = testWorld();
    await services.search.deleteByQuery({
      index: aliasName(config, 'tag', 'en'),
      query: { range: { id: { gte: FIRST_ID } } },
      refresh: true,
    });
  });

  it('sees one snapshot while tags are added and removed: no duplicates, none missing', async () => {
    const { services, config } = testWorld();
    const index = aliasName(config, 'tag', 'en');
    const before = await services.search.search({
      index,
      size: 10_000,
      _source: false,
      query: { range: { id: { lt: FIRST_ID } } },
    });
    const expected = new Set([
      ...before.hits.hits.map((hit) => Number(hit._id)),
      ...Array.from({ length: SEEDED }, (_, i) => FIRST_ID + i),
    ]);
    const added: number[] = [];
    const removed: number[] = [];
    const started = Date.now();
    const { ids } = await walkTags(async (page) => {
      if (page % 40 !== 0) return;
      const fresh = Array.from({ length: 25 }, (_, i) => FIRST_ID + SEEDED + added.length + i);
      const gone = Array.from({ length: 25 }, (_, i) => FIRST_ID + page * 10 + i);
      added.push(...fresh);
      removed.push(...gone);
      await indexTags(fresh, gone);
      if (page === 80) added.push((await writeIndexed('POST', '/tags', { name: 'deepwalk via the api' })).body.id);
    });
    expect(ids.length).to.be.greaterThan(10_000);
    expect(new Set(ids).size, 'no duplicates').to.equal(ids.length);
    expect(
      ids.filter((id) => !expected.has(id)),
      'nothing outside the snapshot',
    ).to.deep.equal([]);
    expect([...expected].filter((id) => !ids.includes(id)).length, 'none missing').to.equal(0);
    expect(added.length).to.be.greaterThan(0);
    expect(removed.length).to.be.greaterThan(0);
    console.log(`      walked ${ids.length} tags in ${Date.now() - started} ms`);
  });

  it('exports exactly what a walk shows', async () => {
    const walked = await walkTags();
    const { baseUrl, adminKey } = testWorld();
    const res = await fetch(`${baseUrl}/calendar/events/v1/tags/export?hide_empty=false`, {
      headers: { Authorization: `Bearer ${adminKey}` },
    });
    expect(res.status).to.equal(200);
    const exported = (await res.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(exported.length).to.be.greaterThan(10_000);
    expect(exported).to.deep.equal(walked.records);
  });
});
