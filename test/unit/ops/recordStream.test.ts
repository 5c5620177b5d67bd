import { expect } from 'chai';
import { idRanges } from '../../../src/ops/recordStream';
import type { BaseDoc, RecordStore } from '../../../src/storage/recordStore';

const storeUpTo = (highest: number) => ({ highestPossibleId: async () => highest }) as unknown as RecordStore<BaseDoc>;

async function rangesOf(highest: number, size: number, signal?: AbortSignal): Promise<[number, number][]> {
  const ranges: [number, number][] = [];
  for await (const range of idRanges(storeUpTo(highest), size, signal)) ranges.push(range);
  return ranges;
}

describe('ops/recordStream: ID ranges of a reindex', () => {
  it('cover every ID from 1 to the highest allocated, each once, the last one shorter', async () => {
    expect(await rangesOf(1001, 500)).to.deep.equal([
      [1, 500],
      [501, 1000],
      [1001, 1001],
    ]);
    expect(await rangesOf(4, 2)).to.deep.equal([
      [1, 2],
      [3, 4],
    ]);
  });

  it('are none before the first ID is allocated', async () => {
    expect(await rangesOf(0, 500)).to.deep.equal([]);
  });

  it('stop at the next range once aborted', async () => {
    const controller = new AbortController();
    const seen: [number, number][] = [];
    const error = await (async () => {
      for await (const range of idRanges(storeUpTo(10), 3, controller.signal)) {
        seen.push(range);
        controller.abort();
      }
    })().catch((err: unknown) => err);
    expect(seen).to.deep.equal([[1, 3]]);
    expect((error as Error).name).to.equal('AbortError');
  });
});
