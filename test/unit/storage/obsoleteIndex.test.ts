import { expect } from 'chai';
import type { Collection } from 'mongodb';
import { dropObsoleteIndex } from '../../../src/storage/mongo';

/** A collection holding `names` indexes; `dropIndex` fails when `canDrop` is false (jongodb). */
function fakeCollection(names: string[], canDrop = true) {
  const dropped: string[] = [];
  const collection = {
    dropIndex: async (name: string) => {
      if (!canDrop) throw Object.assign(new Error('no such command: dropIndexes'), { code: 59 });
      if (!names.includes(name)) throw Object.assign(new Error(`index not found with name [${name}]`), { code: 27 });
      dropped.push(name);
    },
  } as unknown as Collection;
  return { collection, dropped };
}

describe('storage/mongo dropObsoleteIndex', () => {
  it('drops the index when an earlier version left it', async () => {
    const { collection, dropped } = fakeCollection(['_id_', 'id', 'id_lang_unique']);
    expect(await dropObsoleteIndex(collection, 'id_lang_unique')).to.equal(true);
    expect(dropped).to.deep.equal(['id_lang_unique']);
  });

  it('does nothing when it is not there', async () => {
    const { collection, dropped } = fakeCollection(['_id_', 'id']);
    expect(await dropObsoleteIndex(collection, 'id_lang_unique')).to.equal(false);
    expect(dropped).to.deep.equal([]);
  });

  it('lets startup go on when the server cannot drop indexes', async () => {
    const { collection } = fakeCollection(['id_lang_unique'], false);
    expect(await dropObsoleteIndex(collection, 'id_lang_unique')).to.equal(false);
  });
});
