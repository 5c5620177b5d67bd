import { expect } from 'chai';
import type { Collection } from 'mongodb';
import { ensureIndexes, type WantedIndex } from '../../../src/storage/mongo';

/**
 * A collection holding `indexes` (name → key) that logs its calls; `dropIndex` fails when
 * `canDrop` is false (jongodb).
 */
function fakeCollection(indexes: Record<string, Record<string, number>>, canDrop = true) {
  const calls: string[] = [];
  const collection = {
    listIndexes: () => {
      calls.push('list');
      return { toArray: async () => Object.entries(indexes).map(([name, key]) => ({ name, key })) };
    },
    createIndex: async (_key: unknown, options: { name: string }) => {
      calls.push(`create ${options.name}`);
    },
    dropIndex: async (name: string) => {
      if (!canDrop) throw Object.assign(new Error('no such command: dropIndexes'), { code: 59 });
      calls.push(`drop ${name}`);
    },
  } as unknown as Collection;
  return { collection, calls };
}

const WANTED: WantedIndex[] = [
  { key: { id: 1 }, options: { name: 'id' } },
  { key: { slug: 1, lang: 1 }, options: { name: 'slug_lang_unique', unique: true } },
];

describe('storage/mongo ensureIndexes', () => {
  it('lists once, creates only the indexes missing or keyed differently', async () => {
    const { collection, calls } = fakeCollection({ _id_: { _id: 1 }, id: { id: 1 }, slug_lang_unique: { slug: 1 } });
    await ensureIndexes(collection, WANTED);
    expect(calls).to.deep.equal(['list', 'create slug_lang_unique']);
  });

  it('drops an obsolete index when an earlier version left it', async () => {
    const { collection, calls } = fakeCollection({
      id: { id: 1 },
      slug_lang_unique: { slug: 1, lang: 1 },
      id_lang_unique: { id: 1, lang: 1 },
    });
    await ensureIndexes(collection, WANTED, ['id_lang_unique']);
    expect(calls).to.deep.equal(['list', 'drop id_lang_unique']);
  });

  it('does nothing when the obsolete index is not there', async () => {
    const { collection, calls } = fakeCollection({ id: { id: 1 }, slug_lang_unique: { slug: 1, lang: 1 } });
    await ensureIndexes(collection, WANTED, ['id_lang_unique']);
    expect(calls).to.deep.equal(['list']);
  });

  it('lets startup go on when the server cannot drop indexes', async () => {
    const { collection, calls } = fakeCollection({ id_lang_unique: { id: 1, lang: 1 } }, false);
    await ensureIndexes(collection, [], ['id_lang_unique']);
    expect(calls).to.deep.equal(['list']);
  });
});
