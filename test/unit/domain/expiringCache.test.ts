import { expect } from 'chai';
import { ExpiringCache } from '../../../src/lib/expiringCache';

/** A read that records what it was asked and answers when told to. */
function deferredReads<K, V>() {
  const asked: K[][] = [];
  const pending: { keys: K[]; resolve(found: Map<K, V>): void; reject(err: Error): void }[] = [];
  const readMany = (keys: K[]) =>
    new Promise<Map<K, V>>((resolve, reject) => {
      asked.push(keys);
      pending.push({ keys, resolve, reject });
    });
  return { asked, pending, readMany };
}

describe('ExpiringCache', () => {
  it('reads only the keys it does not remember, once, for every concurrent caller', async () => {
    const cache = new ExpiringCache(60_000, 100);
    const reads = deferredReads<number, string>();
    const first = cache.sharedMany('t', [1, 2, 2], reads.readMany);
    const second = cache.sharedMany('t', [2, 3], reads.readMany);
    expect(reads.asked).to.deep.equal([[1, 2], [3]]);
    reads.pending[0]!.resolve(new Map([[2, 'two']]));
    reads.pending[1]!.resolve(new Map([[3, 'three']]));
    expect(await first).to.deep.equal([undefined, 'two', 'two']);
    expect(await second).to.deep.equal(['two', 'three']);
    expect(await cache.sharedMany('t', [1, 3], reads.readMany)).to.deep.equal([undefined, 'three']);
    expect(reads.asked).to.have.length(2);
  });

  it('forgets a failed read, so the next caller reads again', async () => {
    const cache = new ExpiringCache(60_000, 100);
    const reads = deferredReads<string, number>();
    const failing = cache.shared('k', () => reads.readMany(['k']).then((found) => found.get('k')));
    reads.pending[0]!.reject(new Error('down'));
    await failing.then(
      () => expect.fail('the failed read resolved'),
      (err: Error) => expect(err.message).to.equal('down'),
    );
    const retried = cache.shared('k', () => reads.readMany(['k']).then((found) => found.get('k')));
    reads.pending[1]!.resolve(new Map([['k', 7]]));
    expect(await retried).to.equal(7);
    expect(reads.asked).to.have.length(2);
  });

  it('reads again once an entry has outlived its time or the cache was cleared', async () => {
    const cache = new ExpiringCache(0, 100);
    let reads = 0;
    const read = async () => ++reads;
    expect(await cache.shared('k', read)).to.equal(1);
    expect(await cache.shared('k', read)).to.equal(2);
    const kept = new ExpiringCache(60_000, 100);
    expect(await kept.shared('k', read)).to.equal(3);
    kept.clear();
    expect(await kept.shared('k', read)).to.equal(4);
  });

  it('holds at most its bound of entries, forgetting the ones set longest ago', async () => {
    const cache = new ExpiringCache(60_000, 3);
    for (const key of ['a', 'b', 'c']) cache.set(key, key);
    cache.set('a', 'again');
    cache.set('d', 'd');
    expect(cache.size).to.equal(3);
    expect(['a', 'b', 'c', 'd'].map((key) => cache.get(key))).to.deep.equal(['again', undefined, 'c', 'd']);
    const many = Array.from({ length: 10 }, (_, i) => i);
    expect(await cache.sharedMany('n', many, async (keys) => new Map(keys.map((k) => [k, k * 2])))).to.deep.equal(
      many.map((i) => i * 2),
    );
    expect(cache.size).to.equal(3);
  });
});

describe('ExpiringCache tables', () => {
  const entries = (table: ReadonlyMap<number, string | undefined>) => [...table].sort(([a], [b]) => a - b);

  it('answers from one table while it holds every ID asked, and reads again with the known ones when not', async () => {
    const cache = new ExpiringCache(60_000, 100);
    const asked: number[][] = [];
    const readMany = async (ids: number[]) => {
      asked.push([...ids].sort((a, b) => a - b));
      return new Map(ids.filter((id) => id !== 4).map((id) => [id, `#${id}`]));
    };
    expect(entries(await cache.sharedTable('t', new Set([1, 2]), readMany, 10))).to.deep.equal([
      [1, '#1'],
      [2, '#2'],
    ]);
    expect(entries(await cache.sharedTable('t', new Set([2]), readMany, 10))).to.have.length(2);
    // 4 is not found: remembered as such, not read again.
    const wider = await cache.sharedTable('t', new Set([3, 4]), readMany, 10);
    expect(entries(wider)).to.deep.equal([
      [1, '#1'],
      [2, '#2'],
      [3, '#3'],
      [4, undefined],
    ]);
    await cache.sharedTable('t', new Set([4, 1]), readMany, 10);
    expect(asked).to.deep.equal([
      [1, 2],
      [1, 2, 3, 4],
    ]);
  });

  it('reads nothing for no IDs', async () => {
    const cache = new ExpiringCache(60_000, 100);
    const table = await cache.sharedTable('t', new Set<number>(), () => expect.fail('read for no IDs'), 10);
    expect(table.size).to.equal(0);
  });

  it('carries at most maxKnown of the IDs it held into a new read', async () => {
    const cache = new ExpiringCache(60_000, 100);
    const asked: number[][] = [];
    const readMany = async (ids: number[]) => {
      asked.push([...ids].sort((a, b) => a - b));
      return new Map(ids.map((id) => [id, `#${id}`]));
    };
    await cache.sharedTable('t', new Set([1, 2, 3]), readMany, 2);
    await cache.sharedTable('t', new Set([9]), readMany, 2);
    expect(asked[1]).to.deep.equal([1, 2, 9]);
  });

  it('shares a read under way; one failed is forgotten, and whoever waited on it reads again', async () => {
    const cache = new ExpiringCache(60_000, 100);
    const reads = deferredReads<number, string>();
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const first = cache.sharedTable('t', new Set([1]), reads.readMany, 10);
    const second = cache.sharedTable('t', new Set([1]), reads.readMany, 10);
    await settle();
    expect(reads.asked).to.deep.equal([[1]]);
    reads.pending[0]!.reject(new Error('down'));
    await first.then(
      () => expect.fail('the failed read resolved'),
      (err: Error) => expect(err.message).to.equal('down'),
    );
    await settle();
    expect(reads.asked).to.deep.equal([[1], [1]]);
    reads.pending[1]!.resolve(new Map([[1, 'one']]));
    expect([...(await second)]).to.deep.equal([[1, 'one']]);
    expect([...(await cache.sharedTable('t', new Set([1]), reads.readMany, 10))]).to.deep.equal([[1, 'one']]);
    cache.clear();
    const afresh = cache.sharedTable('t', new Set([1]), reads.readMany, 10);
    await settle();
    reads.pending[2]!.resolve(new Map([[1, 'uno']]));
    expect([...(await afresh)]).to.deep.equal([[1, 'uno']]);
    expect(reads.asked).to.have.length(3);
  });
});
