import { expect } from 'chai';
import { formatVerifyReport, verifySync } from '../../src/tools/verify/verify';
import { aliasName } from '../../src/search/indexNames';
import { syncKey } from '../../src/storage/syncQueue';
import { testWorld } from '../support/harness';
import { searchReady, settle, unique } from '../support/lists';
import { storeEvent } from '../support/records';
import { runScript } from '../support/scripts';

/** Far above any ID this run allocates: a document of a record that never existed. */
const GHOST = 99_999_999;

describe('ops: sync:verify (npm run sync:verify)', function () {
  this.timeout(180_000);
  const word = unique('drift');
  let deleted: number;
  let stale: number;

  const alias = (lang: 'en' | 'fr' | 'de') => aliasName(testWorld().config, 'event', lang);

  before(async function () {
    this.timeout(120_000);
    await searchReady();
    deleted = (await storeEvent('en', { title: `${word} one` })).id;
    stale = (await storeEvent('en', { title: `${word} two` })).id;
    await storeEvent('fr', { title: `${word} trois` });
    // Start from an index in sync whatever earlier test files left behind.
    await verifySync(testWorld().services, { kinds: ['event'], repair: true });
    await settle(60_000);
  });

  it('reports in sync, exit 0, when the index matches the database', async () => {
    const report = await verifySync(testWorld().services, { kinds: ['event'] });
    expect(report.inSync).to.equal(true);
    const events = report.aliases.find((a) => a.lang === 'en')!;
    expect(events.database).to.equal(events.index);
    expect(events.database).to.be.at.least(3);

    const result = await runScript('sync-verify', ['--kind', 'events']);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.match(/^events\/en: \d+ records, \d+ documents: in sync$/m);
    expect(result.stdout).to.match(/^in sync \(\d+\.\d s\)$/m);
    expect(result.stderr, 'plain progress summary when not on a terminal').to.match(
      /^verify events\/en: \d+ records in \d+\.\d s \([\d.]+ records\/s\), 0 differences$/m,
    );
  });

  it('finds injected drift: a deleted document, a stale version, a document of no record', async () => {
    const { services } = testWorld();
    const client = services.search;
    await client.delete({ index: alias('en'), id: String(deleted), refresh: true });
    await services.sync.entries.updateOne({ _id: syncKey('event', stale) }, { $inc: { version: 1 } });
    await client.index({
      index: alias('fr'),
      id: String(GHOST),
      version: 7,
      version_type: 'external',
      document: { id: GHOST, title: 'ghost' },
      refresh: true,
    });

    const report = await verifySync(services, { kinds: ['event'] });
    expect(report.inSync).to.equal(false);
    const [en, fr, de] = (['en', 'fr', 'de'] as const).map((lang) => report.aliases.find((a) => a.lang === lang)!);
    expect(en).to.include({ missing: 1, extra: 0, stale: 1 });
    expect(fr).to.include({ missing: 0, extra: 1, stale: 1 });
    expect(de).to.include({ missing: 0, extra: 0, stale: 1 });
    const version = (await services.sync.entriesOf('event', [stale])).get(stale)!.version;
    expect(en.samples).to.deep.include.members([
      { id: deleted, type: 'missing', detail: 'not in the index' },
      { id: stale, type: 'stale', detail: `index v${version - 1}, database v${version}` },
    ]);
    expect(fr.samples).to.deep.include({ id: GHOST, type: 'extra', detail: 'index v7, no record' });

    const result = await runScript('sync-verify', ['--kind', 'events']);
    expect(result.code, result.stderr).to.equal(1);
    expect(result.stdout).to.match(/^events\/en: \d+ records, \d+ documents: missing 1, extra 0, stale 1$/m);
    expect(result.stdout).to.include(`  missing: ${deleted}\n`);
    expect(result.stdout).to.include(`  extra: ${GHOST} (index v7, no record)\n`);
    expect(result.stdout).to.match(/^NOT in sync: 5 differences; "npm run sync:verify -- --repair" queues the fixes$/m);
  });

  it('--repair queues the fixes through the worker, after which verify exits 0', async () => {
    const { services } = testWorld();
    const result = await runScript('sync-verify', ['--kind', 'events', '--repair']);
    expect(result.code, result.stderr).to.equal(1);
    expect(result.stdout).to.match(/queued \d+ repairs for the sync worker: run again once it has caught up$/m);
    // The document of no record had no sync entry: repair created one above its version.
    expect((await services.sync.entriesOf('event', [GHOST])).get(GHOST)?.version).to.be.greaterThan(7);

    await settle();
    const again = await runScript('sync-verify', ['--kind', 'events']);
    expect(again.code, again.stdout).to.equal(0);
    expect(await services.search.exists({ index: alias('fr'), id: String(GHOST) })).to.equal(false);
    expect(await services.search.exists({ index: alias('en'), id: String(deleted) })).to.equal(true);
    const entry = (await services.sync.entriesOf('event', [stale])).get(stale)!;
    expect((await services.search.get({ index: alias('de'), id: String(stale) }))._version).to.equal(entry.version);
  });

  it('changes in flight are counted as pending, not as drift', async () => {
    const { services } = testWorld();
    await services.sync.entries.updateOne(
      { _id: syncKey('event', deleted) },
      { $set: { pending: true, leaseUntil: new Date(Date.now() + 60_000) } },
    );
    try {
      await services.search.delete({
        index: aliasName(testWorld().config, 'event', 'de'),
        id: String(deleted),
        refresh: true,
      });
      const report = await verifySync(services, { kinds: ['event'], langs: ['de'] });
      expect(report.inSync).to.equal(true);
      expect(report.aliases[0]).to.include({ missing: 0, pending: 1, stuck: 0 });
      // The same change waiting longer than the limit: no worker takes it, so the gate fails.
      const stuck = await verifySync(services, { kinds: ['event'], langs: ['de'], stuckAfterMs: 0 });
      expect(stuck.inSync).to.equal(false);
      expect(stuck.aliases[0]).to.include({ missing: 0, pending: 1, stuck: 1 });
      expect(formatVerifyReport(stuck).at(-1)).to.equal(
        'NOT in sync: 1 changes waiting over 0 s: is a sync worker running (npm start or npm run worker), and does Elasticsearch take its writes (its log, calendar_sync_bulk_failures_total)?',
      );
    } finally {
      await services.sync.entries.updateOne({ _id: syncKey('event', deleted) }, { $set: { leaseUntil: new Date(0) } });
      await settle();
    }
  });

  it('a missing alias: one line saying what to run, exit 1', async () => {
    const result = await runScript('sync-verify', ['--kind', 'tags', '--lang', 'de'], {
      INDEX_PREFIX: 'calendar-never-built',
    });
    expect(result.code).to.equal(1);
    expect(result.stdout).to.equal(
      'tags/de: alias calendar-never-built-tags-de does not exist: run "npm run reindex -- --kind tags --lang de" to build it\nNOT in sync: 1 aliases missing\n',
    );
  });
});
