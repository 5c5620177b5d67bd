import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { DateTime } from 'luxon';
import { api } from '../support/api';
import { searchReady, settle, writeIndexed } from '../support/lists';
import { testWorld, whileWorkerStopped } from '../support/harness';
import { until } from '../reliability/support/http';
import { rollSeriesWindows } from '../../src/indexer/seriesWindow';
import { SERIES_PER_BATCH } from '../../src/indexer/batchDocuments';
import { reindex } from '../../src/indexer/reindex/reindex';
import { aliasName } from '../../src/search/indexNames';
import { deleteStaleEventDocuments } from '../../src/search/staleOccurrences';
import { waitUntilSearchable } from '../../src/services/waitForIndex';

const REFERENCE = path.join(__dirname, '../support/python/dateutil_occurrences.py');
let counter = 0;
const unique = (title: string) => `${title} ${Date.now().toString(36)}${++counter}`;
const local = (date: DateTime) => date.toFormat('yyyy-MM-dd HH:mm:ss');

/** python-dateutil's starts (UTC) of the same lines up to `to`. */
function dateutilStarts(dtstart: DateTime, lines: string[], to: DateTime): string[] {
  const input = JSON.stringify({
    dtstart: dtstart.toFormat("yyyy-MM-dd'T'HH:mm:ss"),
    tz: dtstart.zoneName,
    lines,
    to: to.toUTC().toISO({ suppressMilliseconds: true }),
  });
  const occurrences = JSON.parse(execFileSync('python3', [REFERENCE], { input, encoding: 'utf8' })) as {
    utc: string;
  }[];
  return occurrences.map((occurrence) => occurrence.utc);
}

/** Every entry of a series in the list, oldest first. */
async function listedOccurrences(title: string, dates = '&start_date=2000-01-01&end_date=2100-01-01'): Promise<any[]> {
  const res = await api.get(`/events?search=${encodeURIComponent(`"${title}"`)}&per_page=50${dates}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.events ?? [];
}

/** A daily series of `count` occurrences at 18:00 in Paris from three days ahead. */
function dailySeries(title: string, count: number) {
  const start = DateTime.now()
    .setZone('Europe/Paris')
    .plus({ days: 3 })
    .set({ hour: 18, minute: 0, second: 0, millisecond: 0 });
  const body = {
    title,
    start_date: local(start),
    end_date: local(start.plus({ hours: 1 })),
    timezone: 'Europe/Paris',
    recurrence: `RRULE:FREQ=DAILY;COUNT=${count}`,
  };
  return { start, body };
}

const utcStart = (event: any) => `${String(event.utc_start_date).replace(' ', 'T')}Z`;

describe('recurring events: occurrences in lists', () => {
  before(searchReady);

  for (const zone of ['America/New_York', 'Europe/Paris']) {
    it(`a weekly series across both DST changes in ${zone}: one entry per occurrence, as dateutil expands it`, async () => {
      // The zone's words keep one loop's title from matching the other's: the search forgives typos,
      // and two unique suffixes taken seconds apart may differ by two characters only.
      const title = unique(`Weekly dst class ${zone.replace(/[/_]/g, ' ')}`);
      const start = DateTime.now()
        .setZone(zone)
        .plus({ months: 1 })
        .set({ hour: 10, minute: 0, second: 0, millisecond: 0 });
      const lines = [
        'RRULE:FREQ=WEEKLY;COUNT=40',
        `EXDATE;TZID=${zone}:${start.plus({ weeks: 2 }).toFormat("yyyyMMdd'T'HHmmss")}`,
      ];
      const created = await writeIndexed('POST', '/events', {
        title,
        start_date: local(start),
        end_date: local(start.plus({ hours: 1 })),
        timezone: zone,
        recurrence: lines,
      });
      const listed = await listedOccurrences(title);
      expect(listed.map(utcStart)).to.deep.equal(dateutilStarts(start, lines, start.plus({ years: 2 })));
      expect(listed).to.have.length(39);
      expect(new Set(listed.map((e) => e.start_date.slice(11)))).to.deep.equal(new Set(['10:00:00']));
      expect(listed[1].occurrence).to.deep.include({ series_id: created.body.id, index: 2 });
      expect(listed[1].occurrence.recurrence_id).to.equal(
        DateTime.fromISO(utcStart(listed[1])).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'"),
      );
      expect(listed[1].occurrence.rest_url).to.match(
        new RegExp(`/events/${created.body.id}/occurrences/\\d{8}T\\d{6}Z$`),
      );
      expect(listed[0].id).to.equal(created.body.id);
    });
  }

  it('date filters apply to each occurrence; a changed rule drops the occurrences it no longer has', async () => {
    const title = unique('Monthly last friday market');
    const zone = 'Europe/Paris';
    let lastFriday = DateTime.now()
      .setZone(zone)
      .plus({ months: 1 })
      .endOf('month')
      .set({ hour: 9, minute: 0, second: 0, millisecond: 0 });
    while (lastFriday.weekday !== 5) lastFriday = lastFriday.minus({ days: 1 });
    const lines = ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=12'];
    const created = await writeIndexed('POST', '/events', {
      title,
      start_date: local(lastFriday),
      end_date: local(lastFriday.plus({ hours: 4 })),
      timezone: zone,
      recurrence: lines,
    });
    const all = await listedOccurrences(title);
    expect(all.map(utcStart)).to.deep.equal(dateutilStarts(lastFriday, lines, lastFriday.plus({ years: 2 })));
    const from = lastFriday.plus({ months: 3 }).startOf('month');
    const to = lastFriday.plus({ months: 5 }).endOf('month');
    const windowed = await listedOccurrences(
      title,
      `&start_date=${local(from)}&end_date=${local(to)}`.replace(/ /g, '%20'),
    );
    expect(windowed.map(utcStart)).to.deep.equal(
      all.map(utcStart).filter((s) => DateTime.fromISO(s) >= from && DateTime.fromISO(s) <= to),
    );
    await writeIndexed('PATCH', `/events/${created.body.id}`, {
      recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3'],
    });
    expect(await listedOccurrences(title)).to.have.length(3);
    await writeIndexed('PATCH', `/events/${created.body.id}`, { recurrence: null });
    const single = await listedOccurrences(title);
    expect(single).to.have.length(1);
    expect(single[0].occurrence).to.equal(null);
  });

  it('a deleted series leaves no occurrence in lists', async () => {
    const title = unique('Deleted daily series');
    const { body } = dailySeries(title, 5);
    const created = await writeIndexed('POST', '/events', body);
    expect(await listedOccurrences(title)).to.have.length(5);
    await writeIndexed('DELETE', `/events/${created.body.id}?force=true`);
    expect(await listedOccurrences(title)).to.have.length(0);
  });

  it('the search for stale documents refreshes first when asked: a document sent a moment ago is removed', async () => {
    const { services, config } = testWorld();
    await searchReady();
    const index = aliasName(config, 'event', 'en');
    const id = 2_000_000_000 + counter;
    const sent = { index, id: `${id}@20300101T000000Z`, refresh: false as const };
    await services.search.index({ ...sent, document: { series_id: id, indexed_version: 1 } });
    await deleteStaleEventDocuments(services.search, config, [{ id, version: 2 }], { refreshFirst: true });
    expect((await services.search.get(sent, { ignore: [404] })).found).to.equal(false);
  });

  it('changed right after it was indexed, a series drops the occurrences it no longer has', async () => {
    const { services } = testWorld();
    // Indexed and completed by the worker, not refreshed (no Prefer: wait-for-index).
    const indexed = (id: number) =>
      until(
        async () => (await services.sync.entries.findOne({ _id: `event:${id}` }))?.pending === false,
        15_000,
        `event ${id} indexed`,
        10,
      );
    const title = unique('Quickly changed daily series');
    const { body } = dailySeries(title, 6);
    const created = await api.post('/events', body);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    await indexed(created.body.id);
    expect((await api.patch(`/events/${created.body.id}`, { recurrence: 'RRULE:FREQ=DAILY;COUNT=2' })).status).to.equal(
      200,
    );
    await indexed(created.body.id);
    await settle();
    expect(await listedOccurrences(title)).to.have.length(2);
  });

  it('changed or deleted long after it was indexed (no refresh before the search for stale documents), a series drops them too', async () => {
    const { config } = testWorld();
    // Past this, the worker trusts the documents it sent to be searchable (src/indexer/syncWorker.ts).
    const searchable = () =>
      new Promise((resolve) => setTimeout(resolve, config.elasticsearch.refreshIntervalMs + 2_200));
    const title = unique('Later changed daily series');
    const { start, body } = dailySeries(title, 5);
    const created = await writeIndexed('POST', '/events', body);
    expect(await listedOccurrences(title)).to.have.length(5);
    await searchable();
    await writeIndexed('PATCH', `/events/${created.body.id}`, { recurrence: 'RRULE:FREQ=DAILY;COUNT=2' });
    expect((await listedOccurrences(title)).map(utcStart)).to.deep.equal(
      dateutilStarts(start, ['RRULE:FREQ=DAILY;COUNT=2'], start.plus({ years: 2 })),
    );
    await searchable();
    await writeIndexed('DELETE', `/events/${created.body.id}?force=true`);
    expect(await listedOccurrences(title)).to.have.length(0);
  });

  it('more series written at once than a batch indexes (SERIES_PER_BATCH) are all indexed, by the worker and by a reindex', async () => {
    const title = unique('Many daily series');
    const count = SERIES_PER_BATCH + 3;
    const ids = await whileWorkerStopped(async () => {
      const written: number[] = [];
      for (let n = 0; n < count; n++) {
        const res = await api.post('/events', dailySeries(`${title} ${n}`, 3).body);
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        written.push(res.body.id);
      }
      return written;
    });
    await settle();
    const listed = await listedOccurrences(title);
    expect(listed).to.have.length(count * 3);
    expect(new Set(listed.map((event) => event.id))).to.deep.equal(new Set(ids));
    const report = await reindex(testWorld().services, { kinds: ['event'], say: () => undefined });
    expect(report.kinds[0]).to.include({ kind: 'event', errors: 0 });
    await settle();
    expect((await listedOccurrences(title)).map((event) => event.occurrence.recurrence_id)).to.deep.equal(
      listed.map((event) => event.occurrence.recurrence_id),
    );
  });

  it('hide_subsequent_recurrences and include list a series once; total counts entries', async () => {
    const title = unique('Collapsed weekly series');
    const start = DateTime.now()
      .setZone('Europe/Paris')
      .plus({ days: 2 })
      .set({ hour: 8, minute: 0, second: 0, millisecond: 0 });
    const created = await writeIndexed('POST', '/events', {
      title,
      start_date: local(start),
      end_date: local(start.plus({ hours: 1 })),
      timezone: 'Europe/Paris',
      recurrence: 'RRULE:FREQ=WEEKLY;COUNT=6',
    });
    const search = `/events?search=${encodeURIComponent(`"${title}"`)}`;
    const all = await api.get(`${search}&per_page=2`);
    expect(all.body.total).to.equal(6);
    const later = local(start.plus({ weeks: 2 })).replace(' ', '%20');
    const collapsed = await api.get(`${search}&hide_subsequent_recurrences=true&start_date=${later}`);
    expect(collapsed.body.total).to.equal(1);
    expect(collapsed.body.events).to.have.length(1);
    expect(collapsed.body.events[0].occurrence.index).to.equal(3);
    const included = await api.get(`/events?include=${created.body.id}`);
    expect(included.body.total).to.equal(1);
    expect(included.body.events[0].id).to.equal(created.body.id);
  });

  it('with facets, a collapsed list counts the series it lists (past the facet filters), and so do its facets and histogram', async () => {
    const word = unique('Faceted series');
    await writeIndexed('POST', '/events', { ...dailySeries(`${word} featured`, 3).body, featured: true });
    await writeIndexed('POST', '/events', dailySeries(`${word} plain`, 4).body);
    const search = `/events?search=${encodeURIComponent(`"${word}"`)}&hide_subsequent_recurrences=true`;
    const res = await api.get(`${search}&featured=true&facets=featured,tags&histogram=day`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.total).to.equal(1);
    expect(res.body.events.map((event: any) => event.title)).to.deep.equal([`${word} featured`]);
    // Each series once in each value and day it has matches in, as the list shows each once.
    expect(res.body.facets.featured).to.deep.equal([
      { value: false, count: 1 },
      { value: true, count: 1 },
    ]);
    expect(res.body.histogram.map((bucket: any) => bucket.count)).to.deep.equal([1, 1, 1]);
    const both = await api.get(`${search}&facets=featured`);
    expect(both.body.total).to.equal(2);
  });

  it('the window rolls forward by itself: a new day queues every series and an open-ended one is listed to the horizon', async () => {
    const { services, config } = testWorld();
    const title = unique('Open ended daily series');
    const start = DateTime.now()
      .setZone('UTC')
      .plus({ days: 1 })
      .set({ hour: 12, minute: 0, second: 0, millisecond: 0 });
    const created = await writeIndexed('POST', '/events', {
      title,
      start_date: local(start),
      end_date: local(start.plus({ hours: 1 })),
      timezone: 'UTC',
      recurrence: 'RRULE:FREQ=DAILY',
    });
    const id = created.body.id as number;
    const listed = await api.get(
      `/events?search=${encodeURIComponent(`"${title}"`)}&per_page=50&start_date=${local(start.plus({ days: 720 })).replace(' ', '%20')}&end_date=2100-01-01`,
    );
    const last = DateTime.fromISO(utcStart(listed.body.events.at(-1)));
    expect(last.diff(DateTime.now(), 'days').days).to.be.within(
      config.recurrence.horizonDays - 1,
      config.recurrence.horizonDays,
    );
    const before = (await services.sync.entriesOf('event', [id])).get(id)!.version;
    const tomorrow = DateTime.now().plus({ days: 1 }).toJSDate();
    expect(await rollSeriesWindows(services, tomorrow)).to.be.at.least(1);
    expect(await rollSeriesWindows(services, tomorrow), 'once a day').to.equal(0);
    expect((await services.sync.entriesOf('event', [id])).get(id)!.version).to.be.above(before);
    expect(await waitUntilSearchable(services, 'event', id)).to.equal(true);
  });
});
