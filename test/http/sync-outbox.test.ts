import { expect } from 'chai';
import { nextId } from '../../src/storage/counters';
import { syncKey } from '../../src/storage/syncQueue';
import { testWorld, whileWorkerStopped } from '../support/harness';
import { create, searchReady, settle, unique } from '../support/lists';

describe('sync outbox: marking dependents dirty', () => {
  before(async function () {
    this.timeout(60_000);
    await searchReady();
  });

  it('marks records of several kinds dirty in one call: each version once, missing entries created', async () => {
    const { services } = testWorld();
    const venue = (await create('/venues', { venue: unique('Outbox hall') })).id as number;
    const category = (await create('/categories', { name: unique('Outbox') })).id as number;
    await settle();
    const unqueued = await nextId(services.db, 'term');
    try {
      await whileWorkerStopped(async () => {
        const before = {
          venue: (await services.sync.entriesOf('venue', [venue])).get(venue)!,
          category: (await services.sync.entriesOf('category', [category])).get(category)!,
        };
        expect([before.venue.pending, before.category.pending]).to.deep.equal([false, false]);
        await services.sync.markAllDirty([
          ['venue', [venue]],
          ['category', [category, category]],
          ['tag', [unqueued]],
          ['organizer', []],
        ]);
        const after = {
          venue: (await services.sync.entriesOf('venue', [venue])).get(venue)!,
          category: (await services.sync.entriesOf('category', [category])).get(category)!,
          tag: (await services.sync.entriesOf('tag', [unqueued])).get(unqueued)!,
        };
        expect(after.venue).to.include({ version: before.venue.version + 1, pending: true });
        expect(after.category).to.include({ version: before.category.version + 1, pending: true });
        expect(after.tag).to.include({ kind: 'tag', id: unqueued, version: 1, indexedVersion: 0, pending: true });
      });
      await settle();
      const done = await services.sync.entriesOf('venue', [venue]);
      expect(done.get(venue)?.pending).to.equal(false);
    } finally {
      await services.sync.entries.deleteOne({ _id: syncKey('tag', unqueued) });
    }
  });
});
