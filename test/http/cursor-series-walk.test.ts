import { expect } from 'chai';
import { api } from '../support/api';
import { testWorld } from '../support/harness';
import { aliasName } from '../../src/search/indexNames';
import { create, daysFromNow, searchReady, settle, unique, writeIndexed } from '../support/lists';
import { exportOf, walk } from '../support/walks';

const WINDOW = 'start_date=2000-01-01&end_date=2100-01-01';

/** What identifies an entry of an event list: the event and the occurrence it shows. */
const entryOf = (event: any): string => `${event.id}@${event.occurrence?.recurrence_id ?? ''}`;

/** The entries of the numbered page of `path` (Elasticsearch's own collapse), all on one page. */
async function collapsedPage(path: string): Promise<{ entries: string[]; total: number; body: any }> {
  const res = await api.get(`${path}&per_page=50`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body.total).to.be.below(50);
  return { entries: res.body.events.map(entryOf), total: res.body.total, body: res.body };
}

/** The entries of a cursor walk of `path`, page by page. */
async function walkedEntries(path: string) {
  const walked = await walk(path);
  const events = walked.pages.flatMap((page) => page.body.events);
  return { events, entries: events.map(entryOf), pages: walked.pages };
}

describe('cursor walks and exports of lists that show each series once (EXTENSIONS 11 and 16)', () => {
  const word = unique('serieswalk');
  const series: number[] = [];
  const singles: number[] = [];

  before(async function () {
    this.timeout(120_000);
    await searchReady();
    const paris = (await create('/venues', { venue: `Salle ${word}`, geo_lat: 48.8566, geo_lng: 2.3522 })).id;
    const lyon = (await create('/venues', { venue: `Halle ${word}`, geo_lat: 45.764, geo_lng: 4.8357 })).id;
    // Long series interleave with single events by date, and run contiguously by title.
    for (const [name, rule, day, featured, venue] of [
      ['alpha', 'RRULE:FREQ=DAILY;COUNT=12', 3, true, lyon],
      ['bravo', 'RRULE:FREQ=WEEKLY;COUNT=4', 4, false, undefined],
      ['charlie', 'RRULE:FREQ=DAILY;COUNT=30', 1, true, paris],
      // Begun three days ago: its next occurrence is its fourth or fifth.
      ['delta', 'RRULE:FREQ=DAILY;COUNT=10', -3, false, undefined],
    ] as const) {
      const event = await create('/events', {
        title: `${word} ${name}`,
        start_date: daysFromNow(day, '18:00:00'),
        end_date: daysFromNow(day, '19:00:00'),
        recurrence: rule,
        featured,
        ...(venue ? { venue } : {}),
        status: 'publish',
      });
      series.push(event.id);
    }
    for (let i = 0; i < 7; i++) {
      const event = await create('/events', {
        title: `${word} single ${i}`,
        start_date: daysFromNow(2 + i * 3, '12:00:00'),
        end_date: daysFromNow(2 + i * 3, '13:00:00'),
        featured: i % 2 === 0,
        ...(i < 2 ? { venue: i === 0 ? lyon : paris } : {}),
        status: 'publish',
      });
      singles.push(event.id);
    }
    await settle();
  });

  const orders = [
    ['orderby=start_date&order=asc', [1, 3]],
    ['orderby=start_date&order=desc', [1, 3]],
    ['orderby=title&order=asc', [1, 3]],
    ['orderby=relevance', [4]],
    ['orderby=modified&order=desc', [3]],
    // Alpha, charlie and two single events are in Paris and Lyon, within 1,000 km.
    ['orderby=distance&geoloc_lat=48.85&geoloc_lng=2.35&geoloc_radius=1000&geoloc_unit=km', [1]],
  ] as const;
  for (const [order, perPages] of orders) {
    for (const perPage of perPages) {
      it(`hide_subsequent_recurrences, ${order}, ${perPage} a page: the walk lists what the numbered list does, once each`, async () => {
        const path = `/events?search=${word}&hide_subsequent_recurrences=true&${order}&${WINDOW}`;
        const listed = await collapsedPage(path);
        expect(listed.total).to.equal(order.includes('distance') ? 4 : series.length + singles.length);
        const walked = await walkedEntries(`${path}&per_page=${perPage}`);
        expect(walked.entries).to.deep.equal(listed.entries);
        expect(walked.events).to.deep.equal(listed.body.events);
        expect(walked.pages[0]!.body.total).to.equal(listed.total);
        expect(walked.pages).to.have.length(Math.ceil(listed.total / perPage));
        expect(new Set(walked.entries.map((entry) => entry.split('@')[0])).size).to.equal(listed.total);
      });
    }
  }

  it('a walk of a later window starts each series at its first occurrence in it', async () => {
    const path = `/events?search=${word}&hide_subsequent_recurrences=true&start_date=${daysFromNow(8, '00:00:00')}&end_date=2100-01-01`;
    const listed = await collapsedPage(path);
    const walked = await walkedEntries(`${path}&per_page=2`);
    expect(walked.entries).to.deep.equal(listed.entries);
    // alpha and charlie run on past day 8; bravo's weeks too: all three from a later occurrence.
    const indexes = listed.body.events
      .filter((event: any) => series.includes(event.id))
      .map((event: any) => event.occurrence.index);
    expect(indexes).to.have.length(3);
    for (const index of indexes) expect(index).to.be.above(1);
  });

  it('with a facet filter and facets, the walk lists and counts what the numbered list does', async () => {
    const path = `/events?search=${word}&hide_subsequent_recurrences=true&featured=true&facets=featured&${WINDOW}`;
    const listed = await collapsedPage(path);
    expect(listed.total).to.equal(2 + 4);
    const walked = await walkedEntries(`${path}&per_page=4`);
    expect(walked.entries).to.deep.equal(listed.entries);
    expect(walked.pages[0]!.body.total).to.equal(listed.total);
    expect(walked.pages[0]!.body.facets).to.deep.equal(listed.body.facets);
  });

  for (const order of ['asc', 'desc'] as const) {
    it(`include, ${order}: each named series once as its next occurrence, in the order of those; walked as listed`, async () => {
      const path = `/events?include=${[...series, singles[0], singles[5]].join(',')}&orderby=start_date&order=${order}`;
      const listed = await collapsedPage(path);
      expect(listed.total).to.equal(series.length + 2);
      // The next occurrence of each series (delta's fourth or fifth, the others' first); sorted by those.
      const [, , , delta] = series;
      for (const event of listed.body.events.filter((e: any) => series.includes(e.id))) {
        if (event.id === delta) expect(event.occurrence.index).to.be.within(4, 5);
        else expect(event.occurrence.index).to.equal(1);
      }
      const starts = listed.body.events.map((event: any) => event.utc_start_date as string);
      const sorted = [...starts].sort();
      expect(starts).to.deep.equal(order === 'asc' ? sorted : sorted.reverse());
      const walked = await walkedEntries(`${path}&per_page=2`);
      expect(walked.entries).to.deep.equal(listed.entries);
      expect(walked.events).to.deep.equal(listed.body.events);
      const exported = await exportOf(`/events/export?${path.split('?')[1]}`);
      expect(exported.records).to.deep.equal(listed.body.events);
    });
  }

  it('include: a walk names the shown occurrences in its snapshot, so a change between its pages moves nothing', async () => {
    const path = `/events?include=${series.join(',')}&orderby=start_date&per_page=1`;
    const before = await collapsedPage(`/events?include=${series.join(',')}&orderby=start_date`);
    const [first] = before.body.events;
    const walked = await walk(path, {}, async (page) => {
      // The first series' shown occurrence is cancelled: its next one would sort later.
      if (page === 1) await writeIndexed('DELETE', `/events/${first.id}/occurrences/${first.occurrence.recurrence_id}`);
    });
    const entries = walked.pages.flatMap((page) => page.body.events.map(entryOf));
    expect(entries).to.deep.equal(before.entries);
    const after = await collapsedPage(`/events?include=${series.join(',')}&orderby=start_date`);
    expect(after.entries).to.not.deep.equal(before.entries);
  });

  it("a series' document left from when it was a single event (not yet deleted) does not list it twice", async () => {
    const { services, config } = testWorld();
    const index = aliasName(config, 'event', 'en');
    const [bravo] = series.slice(1);
    const found = await services.search.search<Record<string, unknown>>({
      index,
      query: { term: { series_id: bravo } },
      size: 1,
    });
    const occurrence = found.hits.hits[0]!;
    await services.search.index({ index, id: String(bravo), document: occurrence._source, refresh: true });
    try {
      const path = `/events?search=${word}&hide_subsequent_recurrences=true&${WINDOW}`;
      const listed = await collapsedPage(path);
      expect(listed.total).to.equal(series.length + singles.length);
      const walked = await walkedEntries(`${path}&per_page=3`);
      expect(walked.entries).to.deep.equal(listed.entries);
      expect(walked.entries.filter((entry) => entry.startsWith(`${bravo}@`))).to.have.length(1);
    } finally {
      await services.search.delete({ index, id: String(bravo), refresh: true });
    }
  });

  it('an export of a collapsed list streams each series once, as the list shows it', async () => {
    const path = `/events?search=${word}&hide_subsequent_recurrences=true&orderby=title&${WINDOW}`;
    const listed = await collapsedPage(path);
    const exported = await exportOf(
      `/events/export?search=${word}&hide_subsequent_recurrences=true&orderby=title&${WINDOW}`,
    );
    expect(exported.status).to.equal(200);
    expect(exported.records.map(entryOf)).to.deep.equal(listed.entries);
    expect(exported.records).to.deep.equal(listed.body.events);
  });
});
