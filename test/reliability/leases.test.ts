import { expect } from 'chai';
import { leaseCollection, releaseLeases, takeLease } from '../../src/storage/leases';
import { testWorld } from '../support/harness';

const TAKERS = 20;

describe('reliability: a lease taken by many callers at once goes to one of them', () => {
  it('whether it was never taken, released, or expired', async () => {
    const locks = leaseCollection(testWorld().services.db);
    const id = `lease-race-${Date.now().toString(36)}`;
    let rounds = 0;
    const race = async () => {
      const round = ++rounds;
      const holders = Array.from({ length: TAKERS }, (_, i) => `taker-${round}-${i}`);
      const taken = await Promise.all(holders.map((holder) => takeLease(locks, id, holder, 60_000)));
      const winners = holders.filter((_, i) => taken[i]);
      expect(winners).to.have.length(1);
      expect((await locks.findOne({ _id: id }))?.holder).to.equal(winners[0]);
      return winners[0]!;
    };
    for (let i = 0; i < 5; i++) {
      const holder = await race();
      await releaseLeases(locks, [id], holder);
    }
    const stale = await race();
    // Its holder was killed: the lease expires, and one of the next callers takes it over.
    await locks.updateOne({ _id: id }, { $set: { until: new Date(Date.now() - 1) } });
    const next = await race();
    await releaseLeases(locks, [id], stale);
    expect((await locks.findOne({ _id: id }))?.holder, 'the expired holder frees nothing').to.equal(next);
    await releaseLeases(locks, [id], next);
  });
});
