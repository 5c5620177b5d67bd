import { expect } from 'chai';
import type { Db } from 'mongodb';
import { MAX_TREE_DEPTH, RecordTree } from '../../../src/storage/recordTree';
import type { BaseDoc } from '../../../src/storage/storedRecord';

type Doc = BaseDoc & { parent: number };

/** A tree over records given as `id → parent` (0: none), read as MongoDB would return their documents. */
function treeOf(parents: Record<number, number>): RecordTree<Doc> {
  const docs = {
    findOne: async ({ id }: { id: number }) => (id in parents ? { parent: parents[id] } : null),
  };
  const db = { collection: () => docs } as unknown as Db;
  return new RecordTree<Doc>(db, 'categories', 'category', 'parent');
}

describe('storage/RecordTree placement', () => {
  // 1 ← 2 ← 3, and 4 alone; 5's parent (9) no longer exists.
  const tree = treeOf({ 1: 0, 2: 1, 3: 2, 4: 0, 5: 9 });

  it('lets a record go under any record that is not below it, and a new record under any record', async () => {
    expect(await tree.placement(4, 1)).to.equal('fits');
    expect(await tree.placement(1, 3)).to.equal('fits');
    expect(await tree.placement(3, 4)).to.equal('fits');
    expect(await tree.placement(3, null)).to.equal('fits');
    expect(await tree.placement(5, 1)).to.equal('fits');
  });

  it('refuses a parent that does not exist, the record itself, and any record below it', async () => {
    expect(await tree.placement(9, 1)).to.equal('missing');
    expect(await tree.placement(9, null)).to.equal('missing');
    expect(await tree.placement(2, 2)).to.equal('self');
    expect(await tree.placement(2, 1)).to.equal('cycle');
    expect(await tree.placement(3, 1)).to.equal('cycle');
  });

  it(`stops walking up after ${MAX_TREE_DEPTH} ancestors (a corrupted, looping hierarchy)`, async () => {
    const looping = treeOf({ 1: 2, 2: 1, 3: 0 });
    expect(await looping.placement(1, 3)).to.equal('too-deep');
    const chain = Object.fromEntries(Array.from({ length: MAX_TREE_DEPTH + 2 }, (_, i) => [i + 1, i]));
    expect(await treeOf(chain).placement(MAX_TREE_DEPTH + 2, 1000)).to.equal('too-deep');
    expect(await treeOf(chain).placement(MAX_TREE_DEPTH, 1000)).to.equal('fits');
  });

  it(`keeps new records within ${MAX_TREE_DEPTH} levels too, and lets a record keep the parent it has`, async () => {
    const chain = Object.fromEntries(Array.from({ length: MAX_TREE_DEPTH + 2 }, (_, i) => [i + 1, i]));
    expect(await treeOf(chain).placement(MAX_TREE_DEPTH + 2, null)).to.equal('too-deep');
    expect(await treeOf(chain).placement(MAX_TREE_DEPTH, null)).to.equal('fits');
    // A record made before the limit (or moved under a parent that got deeper) can still be saved as it is.
    expect(await treeOf(chain).placement(MAX_TREE_DEPTH + 1, MAX_TREE_DEPTH + 2)).to.equal('fits');
  });
});
