import { expect } from 'chai';
import { LANGUAGES } from '../../config';
import { aliasName } from '../../src/search/indexNames';
import { SyncWorker } from '../../src/indexer/syncWorker';
import type { SyncEntry } from '../../src/storage/syncQueue';
import { testWorld } from '../support/harness';
import { storeEventIn } from '../support/records';
import { call, sleep } from './support/http';
import { openPrivateWorld, runId, type PrivateWorld } from './support/privateWorld';

const ROOT = '/calendar/events/v1';

/** `name{labels} value` of a Prometheus text exposition (0 when the series is absent). */
function sample(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('reliability: Elasticsearch refusing one record of a sync batch', function () {
  this.timeout(120_000);
  let world: PrivateWorld;
  /** An ingest pipeline that gives the refused document a field the strict mapping does not know. */
  const pipeline = runId('refuse-one-');
  const marker = runId('refusedmarker');
  const word = runId('wfail');

  before(async () => {
    world = await openPrivateWorld({
      mongoUrl: testWorld().config.mongo.url!,
      elasticsearchUrl: testWorld().config.elasticsearch.url!,
      // This test drives its own worker, one batch at a time.
      worker: false,
    });
    await world.services.search.ingest.putPipeline({
      id: pipeline,
      processors: [
        {
          set: {
            if: `ctx.title instanceof String && ctx.title.contains('${marker}')`,
            field: 'not_in_the_mapping',
            value: 'refused',
          },
        },
      ],
    });
  });

  after(async () => {
    await world?.close();
    await testWorld()
      .services.search.ingest.deletePipeline({ id: pipeline })
      .catch(() => undefined);
  });

  const scrape = async () => (await call(world.baseUrl, 'GET', '/metrics')).body as string;
  const entriesOf = async (ids: number[]): Promise<Map<number, SyncEntry>> =>
    world.services.sync.entriesOf('event', ids);
  const listed = async (): Promise<number[]> => {
    await world.services.search.indices.refresh({ index: `${world.config.elasticsearch.indexPrefix}-*` });
    const list = await call(world.baseUrl, 'GET', `${ROOT}/events?search=${word}&per_page=50`);
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    return (list.body.events as { id: number }[]).map((event) => event.id).sort((a, b) => a - b);
  };

  it('indexes the rest of the batch, keeps the refused record pending with a backoff, counts it, and indexes it once the cause is gone', async () => {
    const { services, config } = world;
    // Every language's event index refuses the marked document (a strict mapping conflict, 400).
    const eventIndexes = LANGUAGES.map((lang) => aliasName(config, 'event', lang));
    const usePipeline = (name: string | null) =>
      services.search.indices.putSettings({ index: eventIndexes, settings: { 'index.default_pipeline': name } });
    await usePipeline(pipeline);
    const failuresBefore = sample(await scrape(), 'calendar_sync_bulk_failures_total', '{kind="event"}');
    const indexedBefore = sample(await scrape(), 'calendar_sync_indexed_total', '{kind="event"}');

    const first = await storeEventIn(services, 'en', { title: `First ${word}` });
    const refused = await storeEventIn(services, 'en', { title: `Refused ${word} ${marker}` });
    const last = await storeEventIn(services, 'en', { title: `Last ${word}` });
    const ids = [first.id, refused.id, last.id].sort((a, b) => a - b);

    const worker = new SyncWorker(services, { owner: 'failures-test' });
    try {
      const before = Date.now();
      // One batch holds the three events (and nothing else: this world's queue is its own).
      expect(await worker.runOnce()).to.equal(3);

      const entries = await entriesOf(ids);
      for (const id of [first.id, last.id]) {
        const entry = entries.get(id)!;
        expect(entry, `event ${id}`).to.include({ pending: false, owner: null });
        expect(entry.indexedVersion, `event ${id}`).to.equal(entry.version);
      }
      const held = entries.get(refused.id)!;
      expect(held, 'the refused event').to.include({ pending: true, owner: null, indexedVersion: 0 });
      expect(held.leaseUntil.getTime(), 'its lease is given back').to.be.at.most(Date.now());
      // Released with a backoff (the first is 0.5 s), not for an immediate retry.
      expect(held.retryAfter?.getTime(), 'retryAfter').to.be.at.least(before + 500);
      expect((await services.sync.backlog()).pending).to.equal(1);

      expect(await listed()).to.deep.equal([first.id, last.id].sort((a, b) => a - b));
      const scraped = await scrape();
      expect(sample(scraped, 'calendar_sync_bulk_failures_total', '{kind="event"}')).to.equal(failuresBefore + 1);
      expect(sample(scraped, 'calendar_sync_indexed_total', '{kind="event"}')).to.equal(indexedBefore + 2);
      for (const index of eventIndexes) {
        const written = await services.search.exists({ index, id: String(refused.id) });
        expect(written, `the refused event in ${index}`).to.equal(false);
      }

      // The cause removed, the next attempt (once its backoff is over) indexes it.
      await usePipeline(null);
      const deadline = Date.now() + 20_000;
      while ((await entriesOf([refused.id])).get(refused.id)!.pending) {
        if (Date.now() > deadline) throw new Error('the refused event was not indexed after its cause was removed');
        if ((await worker.runOnce()) === 0) await sleep(100);
      }
      const indexed = (await entriesOf([refused.id])).get(refused.id)!;
      expect(indexed.indexedVersion).to.equal(indexed.version);
      expect(await listed()).to.deep.equal(ids);
      const finalScrape = await scrape();
      expect(sample(finalScrape, 'calendar_sync_indexed_total', '{kind="event"}')).to.equal(indexedBefore + 3);
      expect(sample(finalScrape, 'calendar_sync_bulk_failures_total', '{kind="event"}')).to.equal(failuresBefore + 1);
      expect((await services.sync.backlog()).pending).to.equal(0);
    } finally {
      await worker.close();
    }
  });
});
