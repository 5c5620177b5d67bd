import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { LANGUAGES } from '../../config';
import { eventRecordCount, indexesBehind } from '../../src/indexer/reindex/indexAdmin';
import { InterruptedError, OpsError } from '../../src/indexer/opsError';
import { reindex } from '../../src/indexer/reindex/reindex';
import { verifySync } from '../../src/tools/verify/verify';
import { aliasName } from '../../src/search/indexNames';
import { reindexTargets } from '../../src/indexer/reindexTargets';
import { leaseCollection } from '../../src/storage/leases';
import { syncKey } from '../../src/storage/syncQueue';
import { api } from '../support/api';
import { testWorld } from '../support/harness';
import { daysFromNow, listIds, searchReady, settle, unique } from '../support/lists';
import { storeEvent } from '../support/records';

describe('ops: reindex (npm run reindex)', function () {
  this.timeout(180_000);
  const word = unique('rebuild');
  const titles = new Map<number, string>();
  let writes = 0;

  /** Creates an event (or renames one) over HTTP, remembering the last title of each. */
  async function write(id?: number): Promise<void> {
    const title = `${word} ${++writes}`;
    const res = id
      ? await api.post(`/events/${id}`, { title })
      : await api.post('/events', { title, start_date: daysFromNow(5), end_date: daysFromNow(5, '23:00:00') });
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
    titles.set(res.body.id as number, title);
  }

  const alias = (lang: (typeof LANGUAGES)[number] = 'en') => aliasName(testWorld().config, 'event', lang);

  before(async function () {
    this.timeout(120_000);
    await searchReady();
    for (let i = 0; i < 30; i++) {
      const record = await storeEvent('en', { title: `${word} seeded ${i}` });
      titles.set(record.id, `${word} seeded ${i}`);
    }
    await settle();
  });

  it('rebuilds behind the alias while writes continue: none is lost, lists keep answering', async () => {
    const { services } = testWorld();
    const client = services.search;
    const before = await Promise.all(LANGUAGES.map((lang) => indexesBehind(client, alias(lang))));
    const existing = [...titles.keys()];
    const listStatuses: number[] = [];
    let stop = false;
    const background = (async () => {
      for (let n = 0; !stop; n++) {
        await write(n % 2 === 0 ? undefined : existing[n % existing.length]);
        listStatuses.push((await api.get(`/events?search=${word}`)).status);
        await sleep(10);
      }
    })();
    // Writes from inside the load too, so some surely land between registration and swap,
    // including renames of records the rebuild has already copied.
    const result = await reindex(services, {
      kinds: ['event'],
      batchSize: 4,
      onBatch: async (_kind, done) => {
        await write(existing[done % existing.length]);
        await write();
      },
    }).finally(() => {
      stop = true;
    });
    await background;
    await settle();

    expect(result.records).to.be.at.least(30);
    expect(result.errors).to.equal(0);
    expect(listStatuses.length).to.be.greaterThan(0);
    expect(
      listStatuses.every((status) => status === 200),
      String(listStatuses),
    ).to.equal(true);
    for (const [i, lang] of LANGUAGES.entries()) {
      const now = await indexesBehind(client, alias(lang));
      expect(now).to.have.length(1);
      expect(now[0])
        .to.match(new RegExp(`^${alias(lang)}-v\\d+$`))
        .and.not.equal(before[i]![0]);
      expect(await client.indices.exists({ index: before[i]![0]! })).to.equal(false);
    }
    expect(await reindexTargets(services.db).countDocuments({})).to.equal(0);

    const ids = [...titles.keys()];
    const entries = await services.sync.entriesOf('event', ids);
    for (const lang of LANGUAGES) {
      const { docs } = await client.mget<{ title: string }>({ index: alias(lang), ids: ids.map(String) });
      for (const doc of docs) {
        const id = Number(doc._id);
        expect('found' in doc && doc.found, `event ${id} in ${lang}`).to.equal(true);
        if (!('found' in doc)) continue;
        expect(doc._version, `version of ${id}`).to.equal(entries.get(id)?.version);
        expect(doc._source?.title, `title of ${id}`).to.equal(titles.get(id));
      }
      // A series is one record and one document per occurrence.
      expect(await eventRecordCount(client, alias(lang))).to.equal(await services.stores.events.countRecords());
    }
    expect(writes).to.be.greaterThan(10);
    expect((await verifySync(services, { kinds: ['event'] })).inSync).to.equal(true);
  });

  it('an interrupted rebuild leaves the live alias serving the old index; a re-run succeeds', async () => {
    const { services } = testWorld();
    const client = services.search;
    const before = await indexesBehind(client, alias());
    const controller = new AbortController();
    let batches = 0;
    const error = await reindex(services, {
      kinds: ['event'],
      batchSize: 3,
      signal: controller.signal,
      onBatch: () => {
        if (++batches === 2) controller.abort();
      },
    }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).to.be.instanceOf(InterruptedError);
    expect((error as Error).message).to.match(/live aliases are unchanged/);
    expect(await indexesBehind(client, alias())).to.deep.equal(before);
    const versioned = Object.keys(await client.indices.get({ index: `${alias()}-v*` }));
    expect(versioned, 'the half-built index is removed').to.deep.equal(before);
    expect(await client.indices.existsAlias({ name: `${alias()}-rebuild` })).to.equal(false);
    expect(await reindexTargets(services.db).countDocuments({})).to.equal(0);
    expect((await listIds(`/events?search=${word}&per_page=50`)).length).to.be.greaterThan(20);

    await reindex(services, { kinds: ['event'] });
    const after = await indexesBehind(client, alias());
    expect(after).to.have.length(1).and.not.deep.equal(before);
    expect((await listIds(`/events?search=${word}&per_page=50`)).length).to.be.greaterThan(20);
  });

  it("a record that vanishes behind the queue's back fails the count check: nothing is swapped", async () => {
    const { services } = testWorld();
    const store = services.stores.events;
    const [first] = await store.docs.find({}, { sort: { id: 1 }, limit: 1 }).toArray();
    const record = (await store.getMany([first!.id])).get(first!.id)!;
    const before = await indexesBehind(services.search, alias());
    await settle();
    let removed = false;
    try {
      const error = await reindex(services, {
        kinds: ['event'],
        langs: ['en'],
        // One batch: once it reports, every record is loaded and the database has one fewer.
        batchSize: 1_000_000,
        onBatch: async () => {
          if (removed) return;
          removed = true;
          await store.docs.deleteMany({ id: record.id });
        },
      }).catch((err: unknown) => err);
      expect(error).to.be.instanceOf(OpsError);
      const [, records, documents] = /(\d+) records in MongoDB but (\d+) in/.exec(String(error)) ?? [];
      expect(Number(documents), String(error)).to.equal(Number(records) + 1);
      expect(String(error)).to.match(/^OpsError: count check failed for events\/en: .*the live alias is unchanged/);
      expect(await indexesBehind(services.search, alias())).to.deep.equal(before);
      expect(await reindexTargets(services.db).countDocuments({})).to.equal(0);
    } finally {
      if (removed) await store.docs.insertMany(Object.values(record.docs));
    }
  });

  it('reads records above an ID counter that fell behind (a partial restore)', async () => {
    const { services } = testWorld();
    const counters = services.db.collection<{ _id: string; seq: number }>('counters');
    const record = await storeEvent('en', { title: `${word} above the counter` });
    await settle();
    const { seq } = (await counters.findOne({ _id: 'post' }))!;
    await counters.updateOne({ _id: 'post' }, { $set: { seq: record.id - 20 } });
    try {
      const result = await reindex(services, { kinds: ['event'], langs: ['en'], batchSize: 7 });
      expect(result.errors).to.equal(0);
    } finally {
      await counters.updateOne({ _id: 'post' }, { $set: { seq } });
    }
    const doc = await services.search.get<{ title: string }>({ index: alias(), id: String(record.id) });
    expect(doc._source?.title).to.equal(`${word} above the counter`);
    expect(doc._version).to.equal((await services.sync.entriesOf('event', [record.id])).get(record.id)?.version);
  });

  it('a re-run deletes what a crashed run left: its half-built index and stale registration', async () => {
    const { services } = testWorld();
    const client = services.search;
    const leftover = `${alias('fr')}-v90`;
    await client.indices.create({ index: leftover, aliases: { [`${alias('fr')}-rebuild`]: {} } });
    await reindexTargets(services.db).insertOne({
      _id: `${alias('fr')}-rebuild`,
      alias: alias('fr'),
      index: leftover,
      kind: 'event',
      lang: 'fr',
      runId: 'crashed',
      startedAt: new Date(Date.now() - 3_600_000),
      heartbeatAt: new Date(Date.now() - 3_600_000),
    });
    const lines: string[] = [];
    await reindex(services, { kinds: ['event'], langs: ['fr'], say: (line) => lines.push(line) });
    expect(await client.indices.exists({ index: leftover })).to.equal(false);
    expect(await indexesBehind(client, alias('fr'))).to.deep.equal([`${alias('fr')}-v91`]);
    expect(lines.join('\n')).to.include(`deleting ${leftover}, left half-built by an earlier run`);
    expect(await reindexTargets(services.db).countDocuments({})).to.equal(0);
  });

  it('of two runs started at once on overlapping aliases, one rebuilds and the other refuses, changing nothing', async () => {
    const { services } = testWorld();
    const client = services.search;
    for (let round = 0; round < 3; round++) {
      const before = new Map(
        await Promise.all(LANGUAGES.map(async (lang) => [lang, await indexesBehind(client, alias(lang))] as const)),
      );
      const outcomes = await Promise.allSettled([
        reindex(services, { kinds: ['event'], langs: ['en', 'fr'] }),
        reindex(services, { kinds: ['event'], langs: ['fr', 'de'] }),
      ]);
      const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as Error] : []));
      expect(refused, refused.map((err) => err.message).join('\n')).to.have.length(1);
      expect(refused[0]).to.be.instanceOf(OpsError);
      expect(refused[0]!.message).to.match(
        /^another reindex is rebuilding events \(started \d+ s ago\): wait for it to finish/,
      );
      const winner = outcomes.findIndex((outcome) => outcome.status === 'fulfilled');
      const rebuilt = winner === 0 ? ['en', 'fr'] : ['fr', 'de'];
      for (const lang of LANGUAGES) {
        const now = await indexesBehind(client, alias(lang));
        if (rebuilt.includes(lang)) expect(now, lang).to.not.deep.equal(before.get(lang));
        else expect(now, lang).to.deep.equal(before.get(lang));
        // Nothing half-built is left behind the alias: only the index it serves.
        const versions = Object.keys(await client.indices.get({ index: `${alias(lang)}-v*` }));
        expect(versions, lang).to.deep.equal(now);
      }
      expect(await reindexTargets(services.db).countDocuments({})).to.equal(0);
    }
    // Both leases were released: the next run starts at once.
    const next = await reindex(services, { kinds: ['event'], langs: ['fr'] });
    expect(next.kinds[0]!.aliases[0]!.documents).to.equal((await services.search.count({ index: alias('fr') })).count);
  });

  it('a run killed holding its lease blocks others until the lease expires; the message says when', async () => {
    const { services } = testWorld();
    const locks = leaseCollection(services.db);
    const id = `reindex:${alias('de')}`;
    await locks.updateOne(
      { _id: id },
      { $set: { holder: 'killed', since: new Date(Date.now() - 10_000), until: new Date(Date.now() + 50_000) } },
      { upsert: true },
    );
    const before = await indexesBehind(services.search, alias('de'));
    const refused = await reindex(services, { kinds: ['event'], langs: ['de'] }).then(
      () => null,
      (err: Error) => err,
    );
    expect(refused?.message).to.match(
      /^another reindex is rebuilding events \(started 1\d s ago\): wait for it to finish; if it was killed, run again in (49|50) s$/,
    );
    expect(await indexesBehind(services.search, alias('de'))).to.deep.equal(before);
    await locks.updateOne({ _id: id }, { $set: { until: new Date(Date.now() - 1) } });
    const after = await reindex(services, { kinds: ['event'], langs: ['de'] });
    expect(after.kinds[0]!.aliases[0]!.from).to.deep.equal(before);
  });

  it('a run that stalled past its lease does not swap, and undoes only what it made', async () => {
    const { services } = testWorld();
    const locks = leaseCollection(services.db);
    const id = `reindex:${alias('fr')}`;
    const before = await indexesBehind(services.search, alias('fr'));
    const otherRegistration = {
      // The same write alias: the run that took over cleared this one's registration first.
      _id: `${alias('fr')}-rebuild`,
      alias: alias('fr'),
      index: `${alias('fr')}-v999`,
      kind: 'event' as const,
      lang: 'fr' as const,
      runId: 'took-over',
      startedAt: new Date(),
      heartbeatAt: new Date(),
    };
    let built: string | undefined;
    let tookOver = false;
    const failed = await reindex(services, {
      kinds: ['event'],
      langs: ['fr'],
      batchSize: 10,
      // While this run loads, another takes its expired lease over and registers its own build.
      onBatch: async () => {
        if (tookOver) return;
        tookOver = true;
        built = (await reindexTargets(services.db).findOne({ alias: alias('fr') }))!.index;
        await locks.updateOne({ _id: id }, { $set: { holder: 'took-over', until: new Date(Date.now() + 60_000) } });
        await reindexTargets(services.db).deleteMany({ alias: alias('fr') });
        await reindexTargets(services.db).insertOne(otherRegistration);
      },
    }).then(
      () => null,
      (err: Error) => err,
    );
    try {
      expect(failed?.message).to.equal(
        'this run stalled past its lease (60 s), so another reindex may have started; the live aliases are unchanged: run the reindex again',
      );
      expect(await indexesBehind(services.search, alias('fr'))).to.deep.equal(before);
      expect(await services.search.indices.exists({ index: built! })).to.equal(false);
      expect(
        await reindexTargets(services.db)
          .find({ alias: alias('fr') })
          .toArray(),
      ).to.deep.equal([otherRegistration]);
      expect((await locks.findOne({ _id: id }))?.holder).to.equal('took-over');
    } finally {
      await reindexTargets(services.db).deleteOne({ _id: otherRegistration._id });
      await locks.deleteOne({ _id: id });
    }
  });

  it('--dry-run prints the plan and the counts and changes nothing', async () => {
    const { services } = testWorld();
    const before = await indexesBehind(services.search, alias());
    const lines: string[] = [];
    const result = await reindex(services, {
      kinds: ['event'],
      langs: ['en'],
      dryRun: true,
      say: (line) => lines.push(line),
    });
    expect(result.dryRun).to.equal(true);
    expect(await indexesBehind(services.search, alias())).to.deep.equal(before);
    const records = await services.stores.events.countRecords();
    const documents = (await services.search.count({ index: alias() })).count;
    expect(lines).to.deep.equal([
      `events/en: ${alias()} → ${before[0]} (${documents} documents); would build ${alias()}-v${Number(/-v(\d+)$/.exec(before[0]!)![1]) + 1} from ${records} records and swap`,
    ]);
  });

  it('the sync entry of a record without one is created, so the worker and the rebuild agree', async () => {
    const { services } = testWorld();
    const record = await storeEvent('en', { title: `${word} no entry` });
    await settle();
    await services.sync.entries.deleteOne({ _id: syncKey('event', record.id) });
    await reindex(services, { kinds: ['event'], langs: ['en'] });
    await settle();
    const entry = (await services.sync.entriesOf('event', [record.id])).get(record.id);
    expect(entry?.version).to.be.greaterThan(0);
    const doc = await services.search.get({ index: alias(), id: String(record.id) });
    expect(doc._version).to.equal(entry?.version);
  });
});
