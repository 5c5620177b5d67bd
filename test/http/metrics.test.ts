import { expect } from 'chai';
import { api, request, ROOT } from '../support/api';
import { testWorld, whileWorkerStopped } from '../support/harness';
import { create, searchReady, settle, unique, writeIndexed } from '../support/lists';
import { readUntil } from '../reliability/support/http';

/** `name{labels} value` lines of a Prometheus text exposition, by metric name. */
function samples(text: string, name: string): { labels: string; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => {
      const match = /^[^{ ]+(\{.*\})? (\S+)$/.exec(line)!;
      return { labels: match[1] ?? '', value: Number(match[2]) };
    });
}

async function scrape(): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${testWorld().baseUrl}/metrics`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('GET /metrics', () => {
  it('serves Prometheus text without a key, outside the namespace', async () => {
    const { status, type, text } = await scrape();
    expect(status).to.equal(200);
    expect(type).to.match(/^text\/plain; version=0\.0\.4/);
    expect(text).to.include('# TYPE calendar_http_request_duration_seconds histogram');
    expect(samples(text, 'process_resident_memory_bytes')[0]!.value).to.be.above(10_000_000);
    expect((await request('GET', `${ROOT}/metrics`)).status).to.equal(404);
  });

  it('labels request latencies by route pattern and status, never by raw URL', async () => {
    await api.get('/events/987654321');
    await request('GET', '/fr/calendar/events/v1/events/987654322');
    await api.get('/no/such/route');
    const { text } = await scrape();
    const counts = samples(text, 'calendar_http_request_duration_seconds_count');
    const notFound = counts.find(
      (s) => s.labels === '{method="GET",route="/calendar/events/v1/events/:id",status="404"}',
    );
    expect(notFound?.value, text).to.be.at.least(2);
    expect(counts.some((s) => s.labels === '{method="GET",route="unmatched",status="404"}')).to.equal(true);
    // Refused before routing (an unknown key fails authentication first): still the route's pattern.
    const unauthorized = await request('PATCH', `${ROOT}/events/987654323`, { title: 'x' }, { key: 'cal_bogus' });
    expect(unauthorized.status).to.equal(401);
    const after = samples((await scrape()).text, 'calendar_http_request_duration_seconds_count');
    expect(after.map((s) => s.labels)).to.include(
      '{method="PATCH",route="/calendar/events/v1/events/:id",status="401"}',
    );
    expect(text).not.to.include('987654321');
    expect(text).not.to.include('/fr/calendar');
  });

  it('reports dependencies up, the sync backlog, indexed entries and the write-to-index lag', async function () {
    this.timeout(60_000);
    await searchReady();
    await writeIndexed('POST', '/tags', { name: `metrics tag ${Date.now()}` });
    // Each dependency probe gives up after a second: on a busy machine, scrape again for a while.
    const { text } = await readUntil(
      scrape,
      (scraped) => samples(scraped.text, 'calendar_dependency_up').every((s) => s.value === 1),
      10_000,
    );
    expect(samples(text, 'calendar_dependency_up').map((s) => `${s.labels} ${s.value}`)).to.have.members([
      '{dependency="mongo"} 1',
      '{dependency="elasticsearch"} 1',
    ]);
    expect(samples(text, 'calendar_sync_indexed_total').find((s) => s.labels === '{kind="tag"}')?.value).to.be.at.least(
      1,
    );
    expect(
      samples(text, 'calendar_sync_lag_seconds_count').find((s) => s.labels === '{kind="tag"}')?.value,
    ).to.be.at.least(1);
    expect(text).to.include('# TYPE calendar_sync_bulk_failures_total counter');
  });

  it('counts the changes waiting for the worker in the backlog gauges, and none once it caught up', async function () {
    this.timeout(60_000);
    // A scrape shows a snapshot up to 250 ms old: read until it shows `expected`, or give the last.
    // A gauge whose probe gave up (a busy machine) is absent from that scrape: NaN, asked again.
    const figures = async (): Promise<[number, number]> => {
      const { text } = await scrape();
      return [
        samples(text, 'calendar_sync_backlog_entries')[0]?.value ?? NaN,
        samples(text, 'calendar_sync_oldest_pending_seconds')[0]?.value ?? NaN,
      ];
    };
    const backlog = (expected: (figures: [number, number]) => boolean) => readUntil(figures, expected, 10_000, 50);
    const none = ([entries, oldest]: [number, number]) => entries === 0 && oldest === 0;
    await settle();
    expect(await backlog(none)).to.deep.equal([0, 0]);
    await whileWorkerStopped(async () => {
      await create('/tags', { name: unique('metrics backlog tag') });
      await create('/tags', { name: unique('metrics backlog tag') });
      const [entries, oldestSeconds] = await backlog(([waiting]) => waiting > 0);
      expect(entries).to.equal(2);
      expect(oldestSeconds).to.be.above(0).and.below(60);
    });
    await settle();
    expect(await backlog(none)).to.deep.equal([0, 0]);
  });
});
