import { expect } from 'chai';
import { SyncWorker } from '../../src/indexer/syncWorker';
import type { Services } from '../../src/services/container';
import { syncKey } from '../../src/storage/syncQueue';
import { testWorld } from '../support/harness';
import { storeEventIn } from '../support/records';
import { envOf, kill, spawnScript } from './support/childProcess';
import { FaultProxy } from './support/faultProxy';
import { call, until } from './support/http';
import { openPrivateWorld, type PrivateWorld } from './support/privateWorld';

const ROOT = '/calendar/events/v1';

describe('reliability: a sync worker stopping while Elasticsearch hangs', function () {
  this.timeout(120_000);
  let proxy: FaultProxy;
  let world: PrivateWorld;

  before(async () => {
    proxy = await FaultProxy.start(new URL(testWorld().config.elasticsearch.url!));
    world = await openPrivateWorld({
      mongoUrl: testWorld().config.mongo.url!,
      elasticsearchUrl: testWorld().config.elasticsearch.url!,
      worker: false,
    });
  });

  after(async () => {
    await proxy?.down();
    await world?.close();
  });

  /** The world's services, but Elasticsearch reached through the proxy (the worker's own client). */
  const throughProxy = (): Services => ({
    ...world.services,
    config: { ...world.config, elasticsearch: { ...world.config.elasticsearch, url: proxy.url } },
  });

  const entries = () =>
    world.services.db.collection<{ _id: string; owner: string | null; pending: boolean }>('sync_state');
  const entryOf = (id: number) => entries().findOne({ _id: syncKey('event', id) });

  it('aborts the batch in flight after its grace and hands its entries back, instead of waiting out the timeouts', async () => {
    const { services } = world;
    const worker = new SyncWorker(throughProxy(), { leaseMs: 60_000 }).start();
    const first = await storeEventIn(services, 'en', { title: 'Indexed before the hang' });
    await until(async () => (await entryOf(first.id))?.pending === false, 10_000, 'the first event to be indexed');

    await proxy.hang();
    const event = await storeEventIn(services, 'en', { title: 'Stopped mid-flight' });
    await until(async () => (await entryOf(event.id))?.owner === worker.owner, 10_000, 'the worker to claim the event');
    const started = Date.now();
    await worker.close(300);
    // The client alone would wait 60 s per request, and retry.
    expect(Date.now() - started).to.be.below(5_000);
    expect(await entryOf(event.id)).to.include({ owner: null, pending: true });

    // Another worker, with Elasticsearch answering, indexes it at once (no 60 s lease to wait out).
    await proxy.up();
    const next = new SyncWorker(throughProxy()).start();
    try {
      await until(
        async () => {
          const list = await call(world.baseUrl, 'GET', `${ROOT}/events?search=mid-flight`);
          return list.body.events?.some((listed: { id: number }) => listed.id === event.id);
        },
        15_000,
        'the next worker to index the event',
      );
    } finally {
      await next.close();
    }
  });

  it('a standalone worker without PUBLIC_API_URL warns that lists will link to HOST and PORT', async () => {
    const { PUBLIC_API_URL: _unset, ...env } = envOf(world.config);
    const child = spawnScript('src/app/worker.ts', env);
    try {
      await until(async () => /PUBLIC_API_URL is not set/.test(child.output()), 30_000, 'the warning');
      expect(child.output()).to.include(
        "lists will link to http://127.0.0.1:8080 (from HOST and PORT); give the worker the API's PUBLIC_API_URL",
      );
    } finally {
      kill(child, 'SIGTERM');
      await child.exited;
    }
  });

  it('a worker started while Elasticsearch hangs (creating its indexes) stops within its grace', async () => {
    await proxy.hang();
    const worker = new SyncWorker(throughProxy()).start();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = Date.now();
    await worker.close(300);
    expect(Date.now() - started).to.be.below(5_000);
    await proxy.up();
  });
});
