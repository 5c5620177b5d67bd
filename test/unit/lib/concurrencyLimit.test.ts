import { expect } from 'chai';
import { ConcurrencyLimit } from '../../../src/lib/concurrencyLimit';

describe('lib/ConcurrencyLimit', () => {
  it('runs at most max tasks at once, in the order queued, through failures', async () => {
    const limit = new ConcurrencyLimit(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const task = (n: number) => async () => {
      started.push(n);
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      if (n === 1) throw new Error('one fails');
      return n;
    };
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map((n) => limit.run(task(n))));
    expect(peak).to.equal(2);
    expect(started).to.deep.equal([0, 1, 2, 3, 4]);
    expect(results.map((r) => r.status)).to.deep.equal([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(await limit.run(async () => 'free again')).to.equal('free again');
  });
});
