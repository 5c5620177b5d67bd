import { expect } from 'chai';
import { Batcher } from '../../../src/lib/batcher';

describe('Batcher: items gathered into batches, one batch at a time', () => {
  it('hands items given in the same turn to one call, and those given while it runs to the next', async () => {
    const calls: number[][] = [];
    let release!: () => void;
    const batcher = new Batcher<number, string>(async (items) => {
      calls.push(items);
      if (calls.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((n) => `#${n}`);
    });
    const first = [batcher.run(1), batcher.run(2), batcher.run(3)];
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).to.deep.equal([[1, 2, 3]]);
    const second = [batcher.run(4), batcher.run(5)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls, 'none while the first runs').to.have.length(1);
    release();
    expect(await Promise.all([...first, ...second])).to.deep.equal(['#1', '#2', '#3', '#4', '#5']);
    expect(calls).to.deep.equal([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it("rejects a failed batch's items only, and goes on with the next", async () => {
    const batcher = new Batcher<number>(async (items) => {
      if (items.includes(0)) throw new Error('refused');
      return items.map(() => undefined);
    });
    const failed = batcher.run(0);
    const alsoFailed = batcher.run(1);
    await Promise.all([
      failed.then(
        () => expect.fail('resolved'),
        (err: Error) => expect(err.message).to.equal('refused'),
      ),
      alsoFailed.then(
        () => expect.fail('resolved'),
        (err: Error) => expect(err.message).to.equal('refused'),
      ),
    ]);
    expect(await batcher.run(2)).to.equal(undefined);
  });

  it('idle() settles once every item given so far is handled', async () => {
    const handled: number[] = [];
    const batcher = new Batcher<number>(async (items) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      handled.push(...items);
      return items.map(() => undefined);
    });
    void batcher.run(1);
    void batcher.run(2);
    await batcher.idle();
    expect(handled).to.deep.equal([1, 2]);
    await batcher.idle();
  });
});
