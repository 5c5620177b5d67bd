import { expect } from 'chai';
import { mergeById, Peekable, type DatabaseItem, type IndexItem } from '../../../src/tools/verify/driftStreams';

async function* pages<T>(...items: T[][]): AsyncGenerator<T[]> {
  for (const page of items) yield page;
}

describe('ops/driftStreams: merge-compare of two ID-sorted streams', () => {
  it('pairs equal IDs and yields the others alone, across page boundaries', async () => {
    const db = (id: number): DatabaseItem => ({ id, entry: undefined });
    const ix = (id: number): IndexItem => ({ id, version: id * 10 });
    const merged = [];
    for await (const pair of mergeById(
      new Peekable(pages([db(1), db(3)], [db(4), db(9)])),
      new Peekable(pages([ix(2), ix(3)], [], [ix(9), ix(12)])),
    )) {
      merged.push([pair.id, Boolean(pair.database), Boolean(pair.index)]);
    }
    expect(merged).to.deep.equal([
      [1, true, false],
      [2, false, true],
      [3, true, true],
      [4, true, false],
      [9, true, true],
      [12, false, true],
    ]);
  });

  it('empty streams merge to nothing', async () => {
    const merged = [];
    for await (const pair of mergeById(new Peekable(pages<DatabaseItem>()), new Peekable(pages<IndexItem>([]))))
      merged.push(pair);
    expect(merged).to.deep.equal([]);
  });
});
