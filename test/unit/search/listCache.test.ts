import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import { listCacheOf, processCacheOf } from '../../../src/services/queries/listCache';
import type { SyncQueue } from '../../../src/storage/syncQueue';
import type { Config } from '../../../config';

const config = { elasticsearch: { refreshIntervalMs: 20 } } as Config;

describe('search/listCache processCacheOf', () => {
  it('keeps one cache per time limit for each process, all dropped when the process writes or indexes', () => {
    const services = { sync: new EventEmitter() as unknown as SyncQueue, config };
    const short = processCacheOf(services, 250);
    expect(processCacheOf(services, 250)).to.equal(short);
    expect(listCacheOf(services)).to.not.equal(short);
    expect(processCacheOf({ sync: new EventEmitter() as unknown as SyncQueue, config }, 250)).to.not.equal(short);
    for (const event of ['dirty', 'indexed']) {
      short.set('k', 1);
      listCacheOf(services).set('k', 2);
      services.sync.emit(event);
      expect([short.get('k'), listCacheOf(services).get('k')], event).to.deep.equal([undefined, undefined]);
    }
  });

  it('drops again a refresh interval after indexing: what was read in between may predate it', async () => {
    const services = { sync: new EventEmitter() as unknown as SyncQueue, config };
    const cache = listCacheOf(services);
    services.sync.emit('indexed');
    cache.set('read before the refresh', 1);
    expect(cache.get('read before the refresh')).to.equal(1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(cache.get('read before the refresh')).to.equal(undefined);
    cache.set('read after', 2);
    services.sync.emit('dirty');
    expect(cache.get('read after')).to.equal(undefined);
  });
});
