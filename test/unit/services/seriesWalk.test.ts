import { expect } from 'chai';
import type { estypes } from '@elastic/elasticsearch';
import { SERIES_WALK } from '../../../src/search/eventQuery';
import { walkPage, type WalkPosition } from '../../../src/services/queries/cursorWalk';
import type { ListQuery } from '../../../src/services/queries/listing';
import type { Services } from '../../../src/services/container';

interface Occurrence {
  _id: string;
  series: number;
  start: number;
}

/**
 * A one-shard snapshot answering the three searches of a series walk as Elasticsearch does, over
 * occurrences sorted by [start, series]: the scan (search_after, size), each series' first
 * occurrence (the terms and top_hits aggregation) and records by ID. Counts what each page scans.
 */
function snapshot(occurrences: Occurrence[]) {
  const sorted = [...occurrences].sort((a, b) => a.start - b.start || a.series - b.series);
  const hit = (o: Occurrence) => ({ _id: o._id, sort: [o.start, o.series], fields: { series_id: [o.series] } });
  let scanned = 0;
  const search = async (request: estypes.SearchRequest) => {
    const ids = (request.query as { ids?: { values: string[] } }).ids?.values;
    if (ids) {
      const hits = sorted.filter((o) => ids.includes(o._id)).map((o) => ({ ...hit(o), _source: { id: o._id } }));
      return { hits: { hits } };
    }
    if (request.aggs?.entries) {
      const filter = (request.query as unknown as { bool: { filter: { terms: { series_id: number[] } }[] } }).bool
        .filter;
      const wanted = filter.at(-1)!.terms.series_id;
      const buckets = wanted.map((series) => ({
        key: series,
        entry: { hits: { hits: [hit(sorted.find((o) => o.series === series)!)] } },
      }));
      return { hits: { hits: [] }, aggregations: { entries: { buckets } } };
    }
    const after = request.search_after as [number, number] | undefined;
    const from = after
      ? sorted.findIndex((o) => o.start > after[0] || (o.start === after[0] && o.series > after[1]))
      : 0;
    const page = (from < 0 ? [] : sorted.slice(from, from + (request.size ?? 10))).map(hit);
    scanned += page.length;
    return { hits: { hits: page, total: { value: 0, relation: 'eq' } } };
  };
  const services = {
    config: { elasticsearch: { timeoutMs: 1_000 } },
    search: { search, closePointInTime: async () => ({ succeeded: true }) },
  } as unknown as Services;
  return {
    services,
    scannedSince: () => {
      const count = scanned;
      scanned = 0;
      return count;
    },
  };
}

const query: ListQuery = {
  request: { index: 'events', query: { match_all: {} }, sort: [{ start_utc: 'asc' }, { id: 'asc' }] },
  present: async (hits) => hits.map((hit) => ({ id: hit._id })),
  seriesWalk: SERIES_WALK,
};

/** Every page of a walk of `size` entries a page. */
async function walkAll(services: Services, scannedSince: () => number, size: number) {
  const pages: { ids: string[]; scanned: number }[] = [];
  let position: WalkPosition | null = { pit: 'pit', after: null, seen: 0, total: -1 };
  while (position) {
    const page = await walkPage(services, query, position, size, { countTotal: false });
    pages.push({ ids: page.items.map((item) => String(item.id)), scanned: scannedSince() });
    position = page.next;
  }
  return pages;
}

const daily = (series: number, from: number, count: number): Occurrence[] =>
  Array.from({ length: count }, (_, i) => ({ _id: `${series}@${from + i}`, series, start: from + i }));

describe('services/cursorWalk: walks of lists that show each series once', () => {
  it('lists each series once at its first occurrence, and ends with the last entry (no empty page after it)', async () => {
    const { services, scannedSince } = snapshot([
      ...daily(1, 0, 40),
      ...daily(2, 5, 3),
      { _id: '3', series: 3, start: 7 },
      ...daily(4, 39, 2),
    ]);
    for (const size of [1, 2, 4]) {
      const pages = await walkAll(services, scannedSince, size);
      expect(pages.flatMap((page) => page.ids)).to.deep.equal(['1@0', '2@5', '3', '4@39']);
      expect(pages).to.have.length(Math.ceil(4 / size));
    }
  });

  it('scans at most about 10,000 occurrences a page: a page may then hold fewer entries, none is lost', async () => {
    const { services, scannedSince } = snapshot([...daily(1, 0, 30_000), { _id: '2', series: 2, start: 25_000.5 }]);
    const pages = await walkAll(services, scannedSince, 1);
    expect(pages.flatMap((page) => page.ids)).to.deep.equal(['1@0', '2']);
    expect(pages.map((page) => page.ids.length)).to.include(0);
    for (const page of pages) expect(page.scanned).to.be.at.most(11_000);
    expect(pages.reduce((sum, page) => sum + page.scanned, 0)).to.be.below(31_000 + 11_000);
  });
});
