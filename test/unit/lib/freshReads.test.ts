import { expect } from 'chai';
import { FreshReads } from '../../../src/lib/freshReads';

/** A read whose answers the test settles by hand, counting the reads started. */
function manualReads() {
  const started: { resolve(value: number): void; reject(err: Error): void }[] = [];
  const reads = new FreshReads(
    () =>
      new Promise<number>((resolve, reject) => {
        started.push({ resolve, reject });
      }),
  );
  return { reads, started };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('lib/freshReads', () => {
  it('starts a read at once when none is running', async () => {
    const { reads, started } = manualReads();
    const first = reads.fresh();
    expect(started).to.have.length(1);
    started[0]!.resolve(1);
    expect(await first).to.equal(1);
  });

  it('never answers a caller with the read running when it asked: it waits for the next one', async () => {
    const { reads, started } = manualReads();
    const early = reads.fresh();
    const late = reads.fresh();
    expect(started).to.have.length(1);
    started[0]!.resolve(1);
    expect(await early).to.equal(1);
    await tick();
    expect(started).to.have.length(2);
    started[1]!.resolve(2);
    expect(await late).to.equal(2);
  });

  it('shares one next read among every caller that asked while a read ran', async () => {
    const { reads, started } = manualReads();
    void reads.fresh();
    const waiting = [reads.fresh(), reads.fresh(), reads.fresh()];
    started[0]!.resolve(1);
    await tick();
    expect(started).to.have.length(2);
    started[1]!.resolve(2);
    expect(await Promise.all(waiting)).to.deep.equal([2, 2, 2]);
    expect(started).to.have.length(2);
  });

  it('fails the callers waiting for the next read with a failed read, then reads again for the next caller', async () => {
    const { reads, started } = manualReads();
    const failing = reads.fresh();
    const waiting = reads.fresh();
    started[0]!.reject(new Error('gone'));
    for (const caller of [failing, waiting]) {
      await caller.then(
        () => expect.fail('should have failed'),
        (err: Error) => expect(err.message).to.equal('gone'),
      );
    }
    expect(started).to.have.length(1);
    const after = reads.fresh();
    expect(started).to.have.length(2);
    started[1]!.resolve(8);
    expect(await after).to.equal(8);
  });
});
