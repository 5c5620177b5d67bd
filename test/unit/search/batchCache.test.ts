import { expect } from 'chai';
import { eachOnceInBatch, withRunMemo } from '../../../src/services/views/batchCache';
import type { Services } from '../../../src/services/container';

describe('search/batchCache eachOnceInBatch', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  before(() => process.on('unhandledRejection', onUnhandled));
  after(() => process.off('unhandledRejection', onUnhandled));

  it('computes each ID once per run, with the fallback for IDs left out', async () => {
    const services = withRunMemo({} as Services);
    const asked: number[][] = [];
    const compute = async (ids: number[]) => {
      asked.push(ids);
      return new Map(ids.filter((id) => id !== 3).map((id) => [id, id * 10]));
    };
    expect([...(await eachOnceInBatch(services, 'n', [1, 2, 3], compute, 0))]).to.deep.equal([
      [1, 10],
      [2, 20],
      [3, 0],
    ]);
    expect([...(await eachOnceInBatch(services, 'n', [2, 4], compute, 0))]).to.deep.equal([
      [2, 20],
      [4, 40],
    ]);
    expect(asked).to.deep.equal([[1, 2, 3], [4]]);
  });

  it('fails the call when the computation fails, without unhandled rejections, and computes again next time', async () => {
    const services = withRunMemo({} as Services);
    let calls = 0;
    const compute = async (ids: number[]) => {
      calls++;
      if (calls === 1) throw new Error('database blip');
      return new Map(ids.map((id) => [id, id]));
    };
    let failure: Error | undefined;
    await eachOnceInBatch(services, 'n', [1, 2, 3], compute, 0).catch((err: Error) => (failure = err));
    expect(failure?.message).to.equal('database blip');
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).to.deep.equal([]);
    expect([...(await eachOnceInBatch(services, 'n', [1, 2], compute, 0))]).to.deep.equal([
      [1, 1],
      [2, 2],
    ]);
    expect(calls).to.equal(2);
  });
});
