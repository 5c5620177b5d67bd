import { expect } from 'chai';
import { nextId } from '../../src/storage/counters';
import { syncKey } from '../../src/storage/syncQueue';
import { testWorld, whileWorkerStopped } from '../support/harness';
import { create, searchReady, settle, unique } from '../support/lists';
import { api } from '../support/api';
import { reindex } from '../../src/indexer/reindex/reindex';

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

  it('leaves a record waiting to retry waiting when a dependency marks it dirty (no spinning pair)', async () => {
    const { services } = testWorld();
    const venue = (await create('/venues', { venue: unique('Backoff hall') })).id as number;
    await settle();
    await whileWorkerStopped(async () => {
      await services.sync.markDirty('venue', [venue]);
      const [claimed] = (await services.sync.claim('backoff-test', 1000, 60_000)).filter((entry) => entry.id === venue);
      expect(claimed, 'the venue is claimed').to.not.equal(undefined);
      await services.sync.release('backoff-test', [claimed!], 60_000);
      await services.sync.markAllDirty([['venue', [venue]]]);
      const entry = (await services.sync.entriesOf('venue', [venue])).get(venue)!;
      expect(entry.pending).to.equal(true);
      expect(entry.retryAfter!.getTime()).to.be.above(Date.now() + 50_000);
      expect((await services.sync.claim('backoff-test', 1000, 60_000)).map((e) => e.id)).to.not.include(venue);
      // A write of the record itself retries it at once.
      await services.sync.commit('venue', venue);
      expect((await services.sync.entriesOf('venue', [venue])).get(venue)!.retryAfter!.getTime()).to.be.below(
        Date.now(),
      );
    });
    await settle();
  });

  it('recounts a venue an event was linked to only between two of its indexings', async () => {
    const { services } = testWorld();
    const word = unique('between');
    const [first, between, last] = [
      (await create('/venues', { venue: `${word} first` })).id as number,
      (await create('/venues', { venue: `${word} between` })).id as number,
      (await create('/venues', { venue: `${word} last` })).id as number,
    ];
    const event = (
      await create('/events', { title: word, start_date: '2031-01-01', end_date: '2031-01-01', venue: first })
    ).id as number;
    await settle();
    const withEvents = async () =>
      (await api.get(`/venues?search=${word}&has_events=true`)).body.venues.map((v: { id: number }) => v.id);
    expect(await withEvents()).to.deep.equal([first]);
    await whileWorkerStopped(async () => {
      expect((await api.patch(`/events/${event}`, { venue: between })).status).to.equal(200);
      // The venue is indexed while the event links it, before the event is indexed again.
      await reindex(services, { kinds: ['venue'] });
      expect((await api.patch(`/events/${event}`, { venue: last })).status).to.equal(200);
    });
    await settle();
    expect(await withEvents()).to.deep.equal([last]);
  });

  it('recounts the venue of an event deleted for good before its first indexing', async () => {
    const { services } = testWorld();
    const word = unique('unindexed');
    const venue = (await create('/venues', { venue: `${word} hall` })).id as number;
    await settle();
    const withEvents = async () =>
      (await api.get(`/venues?search=${word}&has_events=true`)).body.venues.map((v: { id: number }) => v.id);
    await whileWorkerStopped(async () => {
      const event = (await create('/events', { title: word, start_date: '2031-01-01', end_date: '2031-01-01', venue }))
        .id as number;
      // The venue is indexed counting the event, which the worker has not indexed yet.
      await reindex(services, { kinds: ['venue'] });
      expect(await withEvents()).to.deep.equal([venue]);
      expect((await api.delete(`/events/${event}?force=true`)).status).to.equal(200);
    });
    await settle();
    expect(await withEvents()).to.deep.equal([]);
  });
});
