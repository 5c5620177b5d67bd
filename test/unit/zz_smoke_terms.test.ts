import { testWorld } from '../support/harness';

describe('smoke', () => {
  it('works', async () => {
    const { services } = testWorld();
    const c = services.db.collection('zz');
    await c.insertMany([{ id: 1, lang: 'en', status: 'publish', t: [1, 2], name: 'Café Concerts' }, { id: 1, lang: 'fr', status: 'publish', t: [1, 2] }, { id: 2, lang: 'en', status: 'publish', t: [2] }]);
    const tryIt = async (label: string, p: object[]) => console.log(label, JSON.stringify(await c.aggregate(p).toArray().catch((e) => String(e))));
    await tryIt('addToSet+size', [{ $match: { t: { $in: [1, 2] } } }, { $unwind: '$t' }, { $group: { _id: '$t', ev: { $addToSet: '$id' } } }, { $project: { count: { $size: '$ev' } } }]);
    await tryIt('twogroups-dotted', [{ $unwind: '$t' }, { $group: { _id: { term: '$t', event: '$id' } } }]);
    await tryIt('project then group', [{ $unwind: '$t' }, { $project: { term: '$t', event: '$id' } }, { $group: { _id: { term: '$term', event: '$event' } } }]);
    for (const q of ['café concerts', 'CAFÉ CONCERTS', 'CAFé concerts', 'Café Concerts']) {
      console.log(q, await c.countDocuments({ name: { $regex: new RegExp(`^${q}$`, 'i') } }), await c.countDocuments({ name: { $regex: `^${q}$`, $options: 'i' } }));
    }
  });
});
