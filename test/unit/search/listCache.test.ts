import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import { listCacheOf, processCacheOf } from '../../../src/services/queries/listCache';
import type { SyncQueue } from '../../../src/storage/syncQueue';

describe('search/listCache processCacheOf', () => {
  it('keeps one cache per time limit for each process, all dropped when the process writes or indexes', () => {
    const services = { sync: new EventEmitter() as unknown as SyncQueue };
    const short = processCacheOf(services, 250);
    expect(processCacheOf(services, 250)).to.equal(short);
    expect(listCacheOf(services)).to.not.equal(short);
    expect(processCacheOf({ sync: new EventEmitter() as unknown as SyncQueue }, 250)).to.not.equal(short);
    for (const event of ['dirty', 'indexed']) {
      short.set('k', 1);
      listCacheOf(services).set('k', 2);
      services.sync.emit(event);
      expect([short.get('k'), listCacheOf(services).get('k')], event).to.deep.equal([undefined, undefined]);
    }
  });
});
