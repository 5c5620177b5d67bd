import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { LANGUAGES, loadConfig } from '../../config';
import { createLogger } from '../../src/lib/log';
import { BulkIndexer } from '../../src/indexer/bulkIndexer';
import { aliasName } from '../../src/search/indexNames';
import { SyncWorker } from '../../src/indexer/syncWorker';
import { waitForIndex } from '../../src/http/waitPreference';
import { waitUntilSearchable } from '../../src/services/waitForIndex';
import { startServer } from '../../src/app/server';
import { until } from '../reliability/support/http';
import { openServices } from '../../src/services/container';
import type { AppContext } from '../../src/http/types';
import { syncKey } from '../../src/storage/syncQueue';
import { api, request, ROOT } from '../support/api';
import { testWorld, whileWorkerStopped } from '../support/harness';
import { create, daysFromNow, listIds, searchReady, settle, unique, writeIndexed } from '../support/lists';

describe('lists: sync worker and consistency', () => {
  const tag = unique('synctag');
  const word = unique('moon');
  const events = (query: string) => listIds(`/events?tags=${tag}&${query}`);
  /** Creates an event three days on, tagged with this file's tag unless `fields` say otherwise. */
  const postEvent = (title: string, fields: Record<string, unknown> = { tags: [tag] }) =>
    api.post('/events', { title, start_date: daysFromNow(3), end_date: daysFromNow(3, '22:00:00'), ...fields });
  let venue: number;
  let organizer: number;
  let category: number;
  let event: number;

  before(async function () {
    this.timeout(120_000);
    await searchReady();
    venue = (await create('/venues', { venue: `Blue ${word} Club` })).id;
    organizer = (await create('/organizers', { organizer: 'Night Owls' })).id;
    category = (await create('/categories', { name: 'Chamber music' })).id;
    event = (
      await create('/events', {
        title: 'Evening set',
        start_date: daysFromNow(8),
        end_date: daysFromNow(8, '23:00:00'),
        tags: [tag],
        venue,
        organizer: [organizer],
        categories: [category],
      })
    ).id;
    await settle();
  });

  describe('related changes propagate to events', () => {
    it('renaming a venue or an organizer re-indexes its events', async () => {
      expect(await events(`search=blue%20${word}`)).to.deep.equal([event]);
      await writeIndexed('POST', `/venues/${venue}`, { venue: `Red ${word} Hall` });
      expect(await events(`search=red%20${word}`)).to.deep.equal([event]);
      expect(await events(`search=blue%20${word}`)).to.deep.equal([]);
      const [listed] = (await api.get(`/events?tags=${tag}`)).body.events;
      expect(listed.venue.venue).to.equal(`Red ${word} Hall`);
      await writeIndexed('PATCH', `/organizers/${organizer}`, { organizer: 'Early Larks' });
      expect(await events('search=early%20larks')).to.deep.equal([event]);
    });

    it("changing a venue's coordinates moves its events on the map", async () => {
      expect(await events('geoloc=true')).to.deep.equal([]);
      await writeIndexed('PUT', `/venues/${venue}`, { geo_lat: 52.52, geo_lng: 13.405 });
      expect(await events('geoloc=true')).to.deep.equal([event]);
      expect(await events('geoloc_lat=52.5&geoloc_lng=13.4&geoloc_radius=5&geoloc_unit=km')).to.deep.equal([event]);
    });

    it('renaming a term or adding a translation re-indexes its events in every language', async () => {
      await writeIndexed('POST', `/tags/${(await api.get(`/tags?search=${tag}`)).body.tags[0].id}`, {
        name: `${tag} renamed`,
      });
      expect(await events('search=renamed')).to.deep.equal([event]);
      const fr = await request(
        'POST',
        `/fr${ROOT}/categories/${category}`,
        { name: 'Musique de chambre' },
        { key: true, headers: { Prefer: 'wait-for-index' } },
      );
      expect(fr.status).to.equal(200);
      expect(await waitUntilSearchable(testWorld().services, 'category', category)).to.equal(true);
      const french = await request('GET', `/fr${ROOT}/events?tags=${tag}&search=musique`);
      expect(french.body.events.map((e: { id: number }) => e.id)).to.deep.equal([event]);
      expect(french.body.events[0].categories[0].name).to.equal('Musique de chambre');
      const [english] = (await api.get(`/events?tags=${tag}`)).body.events;
      expect(english.categories[0].name).to.equal('Chamber music');
    });

    it("lists show a term's current count once another event using it is indexed", async () => {
      const counted = (await create('/categories', { name: unique('Counted') })).id;
      const ownTag = unique('counttag');
      const first = await create('/events', {
        title: 'Counted first',
        start_date: daysFromNow(8),
        end_date: daysFromNow(8, '23:00:00'),
        tags: [ownTag],
        categories: [counted],
      });
      await settle();
      const countIn = async () => {
        const listed = (await api.get(`/events?tags=${ownTag}&categories=${counted}`)).body.events;
        expect(listed.map((e: { id: number }) => e.id)).to.deep.equal([first.id]);
        return listed[0].categories[0].count;
      };
      expect(await countIn()).to.equal(1);
      await writeIndexed('POST', '/events', {
        title: 'Counted second, listed elsewhere',
        start_date: daysFromNow(9),
        end_date: daysFromNow(9, '23:00:00'),
        categories: [counted],
      });
      await settle();
      expect(await countIn()).to.equal(2);
    });

    it("event documents embed their terms' counts as the term index held them (no count over the events)", async () => {
      const counted = (await create('/categories', { name: unique('Indexed count') })).id;
      await settle();
      const event = (await postEvent('Counted once', { categories: [counted] })).body.id;
      await settle();
      const { services, config } = testWorld();
      const stored = await services.search.get<{ record: { categories: { count: number }[] } }>({
        index: aliasName(config, 'event', 'en'),
        id: String(event),
      });
      // The term was indexed with no events when the event's batch read its count...
      expect(stored._source?.record.categories[0]?.count).to.equal(0);
      // ...and what users see is the term index's current count.
      const listed = (await api.get(`/events?categories=${counted}`)).body.events;
      expect(
        listed.map((e: { id: number; categories: { count: number }[] }) => [e.id, e.categories[0]?.count]),
      ).to.deep.equal([[event, 1]]);
      expect((await api.get(`/categories/${counted}`)).body.count).to.equal(1);
    });

    it('trashing a venue removes it from its events; deleting an event removes it from lists', async () => {
      await writeIndexed('DELETE', `/venues/${venue}`);
      const [listed] = (await api.get(`/events?tags=${tag}`)).body.events;
      expect(listed.venue).to.deep.equal([]);
      expect(await events(`search=red%20${word}`)).to.deep.equal([]);
      const doomed = await create('/events', {
        title: 'Doomed',
        start_date: daysFromNow(9),
        end_date: daysFromNow(9, '23:00:00'),
        tags: [tag],
      });
      await settle();
      expect(await events('')).to.deep.equal([event, doomed.id]);
      await writeIndexed('DELETE', `/events/${doomed.id}?force=true`);
      expect(await events('')).to.deep.equal([event]);
    });
  });

  describe('Prefer: wait-for-index', () => {
    function fakeContext(prefer?: string) {
      const headers: Record<string, string> = {};
      const ctx = {
        get: (name: string) => (name.toLowerCase() === 'prefer' ? (prefer ?? '') : ''),
        set: (name: string, value: string) => {
          headers[name] = value;
        },
        vary: () => undefined,
        state: {},
      } as unknown as AppContext;
      return { ctx, headers };
    }

    it('answers once the write is searchable and says so', async () => {
      const { services } = testWorld();
      const created = await postEvent(`Waited ${word}`);
      const { ctx, headers } = fakeContext('respond-async, wait-for-index');
      await waitForIndex(ctx, services, 'event', created.body.id);
      expect(headers['Preference-Applied']).to.equal('wait-for-index');
      expect(await events(`search=waited%20${word}`)).to.deep.equal([created.body.id]);
    });

    it('does nothing without the preference, and gives up after the timeout without Preference-Applied', async () => {
      const { services } = testWorld();
      const plain = fakeContext();
      await waitForIndex(plain.ctx, services, 'event', event);
      expect(plain.headers).to.deep.equal({});
      await whileWorkerStopped(async () => {
        const created = await postEvent('Unindexed', {});
        const started = Date.now();
        expect(await waitUntilSearchable(services, 'event', created.body.id, 300)).to.equal(false);
        // Given up, not waited out the worker (generous: this machine's two cores are shared).
        expect(Date.now() - started).to.be.below(5_000);
      });
      await settle();
    });

    it('refreshes only the indexes the write may have changed: a venue and its events, not organizers', async () => {
      const { services, config } = testWorld();
      const kinds = ['venue', 'event', 'organizer'] as const;
      // Refreshes asked for (not those of the refresh interval), in every language of each kind.
      const refreshesAsked = async () => {
        const counts = await Promise.all(
          kinds.map(async (kind) => {
            const stats = await services.search.indices.stats({
              index: LANGUAGES.map((lang) => aliasName(config, kind, lang)),
              metric: 'refresh',
            });
            return stats._all.primaries?.refresh?.external_total ?? 0;
          }),
        );
        return Object.fromEntries(kinds.map((kind, i) => [kind, counts[i]!]));
      };
      await settle();
      const before = await refreshesAsked();
      const venue = await writeIndexed('POST', '/venues', { venue: unique('Refreshed hall') });
      expect(venue.headers.get('preference-applied')).to.equal('wait-for-index');
      const after = await refreshesAsked();
      expect(after.venue, 'venues').to.be.at.least(before.venue! + 3);
      expect(after.event, 'events').to.be.at.least(before.event! + 3);
      expect(after.organizer, 'organizers').to.equal(before.organizer);
    });
  });

  describe('robustness', () => {
    it('a worker that crashed after indexing, before checkpointing: another one finishes after the lease', async () => {
      const { services } = testWorld();
      const crashed = new SyncWorker(services, { owner: 'crashed', leaseMs: 60_000 });
      const rescuer = new SyncWorker(services, { owner: 'rescuer', pollMs: 20 });
      const complete = services.sync.complete;
      await whileWorkerStopped(async () => {
        try {
          const created = await postEvent(`Crash ${word}`);
          const key = syncKey('event', created.body.id);
          services.sync.complete = async () => {
            throw new Error('simulated crash before checkpoint');
          };
          await crashed.runOnce().then(
            () => expect.fail('the crash should propagate'),
            (err: Error) => expect(err.message).to.equal('simulated crash before checkpoint'),
          );
          services.sync.complete = complete;
          const leased = await services.sync.entries.findOne({ _id: key });
          expect(leased).to.include({ pending: true, owner: 'crashed', indexedVersion: 0 });
          rescuer.start();
          await sleep(300);
          expect((await services.sync.entries.findOne({ _id: key }))?.owner, 'lease still held').to.equal('crashed');
          // The crashed worker's lease lapses.
          await services.sync.entries.updateOne({ _id: key }, { $set: { leaseUntil: new Date(0) } });
          await until(
            async () => (await services.sync.entries.findOne({ _id: key }))?.pending === false,
            10_000,
            `${key} indexed`,
            20,
          );
          const done = await services.sync.entries.findOne({ _id: key });
          expect(done?.indexedVersion).to.equal(leased?.version);
          await services.search.indices.refresh({ index: aliasName(services.config, 'event', 'en') });
          expect(await events(`search=crash%20${word}`)).to.deep.equal([created.body.id]);
        } finally {
          services.sync.complete = complete;
          await crashed.close();
          await rescuer.close();
        }
      });
    });

    it('a worker stopped after claiming: nothing is lost, another worker takes over after the lease', async () => {
      const { services } = testWorld();
      const other = new SyncWorker(services, { owner: 'other', pollMs: 20 });
      await whileWorkerStopped(async () => {
        try {
          const created = await postEvent(`Claimed ${word}`);
          const claimed = await services.sync.claim('gone', 100, 800);
          expect(claimed.map((c) => c.key)).to.include(syncKey('event', created.body.id));
          other.start();
          await until(async () => (await services.sync.backlog()).pending === 0, 10_000, 'no backlog', 20);
          await services.search.indices.refresh({ index: aliasName(services.config, 'event', 'en') });
          expect(await events(`search=claimed%20${word}`)).to.deep.equal([created.body.id]);
        } finally {
          await other.close();
        }
      });
    });

    it('never lets an older version overwrite a newer one (external versions)', async () => {
      const { services } = testWorld();
      const index = aliasName(services.config, 'event', 'en');
      const indexer = new BulkIndexer(services.search, { flushBytes: 1 << 20, flushMs: 5, concurrency: 2 });
      const base = (await services.search.get<Record<string, any>>({ index, id: String(event) }))._source as Record<
        string,
        any
      >;
      const id = '990000001';
      const newer = await indexer.push({
        action: 'index',
        index,
        id,
        version: 10,
        document: { ...base, id: 990000001, title: 'newer' },
      });
      const older = await indexer.push({
        action: 'index',
        index,
        id,
        version: 7,
        document: { ...base, id: 990000001, title: 'older' },
      });
      expect(newer).to.deep.equal({ ok: true, status: 201 });
      expect(older).to.deep.equal({ ok: true, status: 409 });
      const staleDelete = await indexer.push({ action: 'delete', index, id, version: 8 });
      expect(staleDelete.ok).to.equal(true);
      const kept = await services.search.get<Record<string, any>>({ index, id });
      expect(kept._version).to.equal(10);
      expect(kept._source?.title).to.equal('newer');
      await indexer.push({ action: 'delete', index, id, version: 11 });

      // Through workers: a slow worker whose claim lapsed indexes after a newer version landed.
      const slow = new SyncWorker(services, { owner: 'slow' });
      const fast = new SyncWorker(services, { owner: 'fast' });
      await whileWorkerStopped(async () => {
        try {
          await api.post(`/events/${event}`, { title: 'Evening set v2' });
          const [stale] = await services.sync
            .claim('slow', 10, 60_000)
            .then((all) => all.filter((c) => c.id === event));
          await api.post(`/events/${event}`, { title: 'Evening set v3' });
          // A write leaves a claimed entry to its worker: no other batch indexes the record meanwhile.
          // (A 1 ms lease: whatever else this probe claims is free again at once.)
          expect((await services.sync.claim('probe', 10, 1)).map((c) => c.id)).to.not.include(event);
          // The slow worker's lease lapses.
          await services.sync.entries.updateOne(
            { _id: syncKey('event', event) },
            { $set: { leaseUntil: new Date(0) } },
          );
          await fast.runOnce();
          const current = (await services.sync.entries.findOne({ _id: syncKey('event', event) }))?.version as number;
          expect(stale!.version).to.be.below(current);
          await slow.process([stale!]);
          const doc = await services.search.get<Record<string, any>>({ index, id: String(event) });
          expect(doc._version).to.equal(current);
          expect(doc._source?.title).to.equal('Evening set v3');
          expect(await services.sync.entries.findOne({ _id: syncKey('event', event) })).to.include({
            pending: false,
            indexedVersion: current,
          });
        } finally {
          await slow.close();
          await fast.close();
        }
      });
    });

    it('a write retries at once a record whose indexing failed, instead of waiting out its backoff', async () => {
      const { services } = testWorld();
      await whileWorkerStopped(async () => {
        await api.post(`/events/${event}`, { title: 'Evening set, failing' });
        const claimed = (await services.sync.claim('failing', 500, 60_000)).filter((c) => c.id === event);
        expect(claimed).to.have.length(1);
        await services.sync.release('failing', claimed, 60_000);
        const probe = async () => (await services.sync.claim('probe', 500, 1)).some((c) => c.id === event);
        expect(await probe(), 'while backing off').to.equal(false);
        await api.post(`/events/${event}`, { title: 'Evening set, fixed' });
        expect(await probe(), 'once written again').to.equal(true);
      });
      await settle();
      expect(
        (await api.get(`/events?search=fixed&include=${event}`)).body.events.map((e: { id: number }) => e.id),
      ).to.deep.equal([event]);
    });

    it('lists answer 503 search-unavailable within 2 s when Elasticsearch is down or hangs, while reads by ID work', async function () {
      this.timeout(20_000);
      const { config } = testWorld();
      const sockets: Socket[] = [];
      const blackHole: Server = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
      const hangingUrl = `http://127.0.0.1:${(blackHole.address() as AddressInfo).port}`;
      try {
        for (const url of ['http://127.0.0.1:1', hangingUrl]) {
          const broken = loadConfig({
            ...process.env,
            NODE_ENV: 'test',
            MONGO_URL: config.mongo.url,
            MONGO_DATABASE: config.mongo.database,
            ELASTICSEARCH_URL: url,
            INDEX_PREFIX: config.elasticsearch.indexPrefix,
            PUBLIC_API_URL: config.apiUrl,
            SITE_URL: config.siteUrl,
            LOG_LEVEL: 'silent',
          });
          const services = await openServices(broken, createLogger('silent'));
          const server = await startServer(services, '127.0.0.1', 0);
          try {
            const started = Date.now();
            const res = await fetch(`${server.url}${ROOT}/events`);
            expect(Date.now() - started, url).to.be.below(5_000); // the search deadline (1.5 s), not the retries (30 s and more)
            expect(res.status).to.equal(503);
            expect(res.headers.get('retry-after')).to.equal('5');
            expect(((await res.json()) as { code: string }).code).to.equal('search-unavailable');
            const read = await fetch(`${server.url}${ROOT}/events/${event}`);
            expect(read.status).to.equal(200);
          } finally {
            await server.close();
            await services.close();
          }
        }
      } finally {
        for (const socket of sockets) socket.destroy();
        blackHole.close();
      }
    });
  });
});
