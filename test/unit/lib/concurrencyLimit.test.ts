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

describe('lib/ConcurrencyLimit by weight', () => {
  /** Runs tasks of the given weights at once; returns, per task, the weight running beside it at its start. */
  async function weighed(max: number, weights: number[]): Promise<{ order: number[]; peak: number }> {
    const limit = new ConcurrencyLimit(max);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      weights.map((weight, n) =>
        limit.run(async () => {
          order.push(n);
          running += Math.min(weight, max);
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= Math.min(weight, max);
        }, weight),
      ),
    );
    return { order, peak };
  }

  it('runs light tasks together up to the total weight', async () => {
    expect(await weighed(10, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1])).to.deep.equal({
      order: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      peak: 10,
    });
  });

  it('runs a task of the whole weight alone, and one heavier than the whole as if of the whole', async () => {
    expect((await weighed(10, [3, 10, 3, 25, 1])).peak).to.equal(10);
    expect((await weighed(10, [10, 25])).order).to.deep.equal([0, 1]);
  });

  it('keeps the order queued: a heavy task waiting holds back the light ones behind it', async () => {
    const limit = new ConcurrencyLimit(10);
    const started: string[] = [];
    const task = (name: string, ms: number) => async () => {
      started.push(name);
      await new Promise((resolve) => setTimeout(resolve, ms));
    };
    await Promise.all([
      limit.run(task('light, long', 20), 4),
      limit.run(task('heavy', 5), 10),
      limit.run(task('light, after', 5), 1),
    ]);
    expect(started).to.deep.equal(['light, long', 'heavy', 'light, after']);
  });
});
