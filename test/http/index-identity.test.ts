import { expect } from 'chai';
import pino from 'pino';
import { ensureSearchIndexes } from '../../src/search/ensureIndexes';
import { aliasName } from '../../src/search/indexNames';
import { indexesBehind } from '../../src/indexer/reindex/indexAdmin';
import { matchIndexesToDatabase, prepareSearchIndexes } from '../../src/indexer/indexIdentity';
import { SyncWorker } from '../../src/indexer/syncWorker';
import { startServer } from '../../src/app/server';
import { openServices, type Services } from '../../src/services/container';
import { emptyDatabase } from '../../src/tools/emptyDatabase';
import { testWorld } from '../support/harness';
import { storeEventIn } from '../support/records';
import { runScript } from '../support/scripts';

/** A process's log lines (JSON), to count what it said. */
function capturedLog(): { log: pino.Logger; lines: { msg: string }[] } {
  const lines: { msg: string }[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

const REBUILD_LINE = /^the search indexes of .+ were built from another database: rebuilding them from this one$/;

describe('search indexes belong to their database (instance identity)', function () {
  this.timeout(120_000);
  const opened: Services[] = [];
  // Under the world's prefix: its cleanup deletes these indexes too.
  const prefix = () => `${testWorld().config.elasticsearch.indexPrefix}-ident`;
  const database = (name: string) => `${testWorld().config.mongo.database}_${name}`;

  /** A process opening `name` beside the indexes of `prefix()` (another database each time is a fresh one). */
  async function open(name: string, log = capturedLog().log): Promise<Services> {
    const { config } = testWorld();
    const services = await openServices(
      {
        ...config,
        mongo: { ...config.mongo, database: database(name) },
        elasticsearch: { ...config.elasticsearch, indexPrefix: prefix() },
      },
      log,
    );
    opened.push(services);
    return services;
  }

  /** Indexes every queued change, as the worker would, then makes it searchable. */
  async function sync(services: Services): Promise<void> {
    const worker = new SyncWorker(services);
    while ((await worker.runOnce()) > 0);
    await worker.close();
    await services.search.indices.refresh({ index: `${prefix()}-*` });
  }

  const liveIndexes = (services: Services) => indexesBehind(services.search, aliasName(services.config, 'event', 'en'));
  const instanceOf = async (services: Services) => {
    const [index] = await liveIndexes(services);
    const mapping = await services.search.indices.getMapping({ index: index as string });
    return mapping[index as string]?.mappings._meta?.instance;
  };

  after(async () => {
    for (const services of opened) {
      await emptyDatabase(services).catch(() => undefined);
      await services.close();
    }
  });

  it('a database restarted empty beside its old index: the list serves no stale record, and a new record reusing its ID is indexed', async () => {
    const before = await open('first');
    expect(await prepareSearchIndexes(before)).to.equal('unchanged');
    expect(await instanceOf(before)).to.equal(before.instanceId);
    const old = await storeEventIn(before, 'en', { title: 'Stale concert' });
    await sync(before);

    // The embedded jongodb restarted empty while Elasticsearch kept its data.
    const { log, lines } = capturedLog();
    const after = await open('second', log);
    expect(after.instanceId).to.not.equal(before.instanceId);
    expect(await prepareSearchIndexes(after)).to.equal('rebuilt');
    expect(lines.map((line) => line.msg)).to.have.length(1);
    expect(lines[0]?.msg).to.match(REBUILD_LINE);
    expect(await instanceOf(after)).to.equal(after.instanceId);

    const server = await startServer(after, '127.0.0.1', 0);
    try {
      const list = async () => {
        const res = await fetch(`${server.url}/calendar/events/v1/events?search=concert`);
        expect(res.status).to.equal(200);
        return ((await res.json()) as { events: { id: number; title: string }[] }).events;
      };
      expect(await list()).to.deep.equal([]);
      const reused = await storeEventIn(after, 'en', { title: 'Fresh concert' });
      expect(reused.id).to.equal(old.id);
      await sync(after);
      expect((await list()).map((event) => [event.id, event.title])).to.deep.equal([[old.id, 'Fresh concert']]);
    } finally {
      await server.close();
    }
  });

  it('identities that match: nothing is rebuilt, nothing logged', async () => {
    const { log, lines } = capturedLog();
    const again = await open('second', log);
    const indexes = await liveIndexes(again);
    expect(await prepareSearchIndexes(again)).to.equal('unchanged');
    expect(await liveIndexes(again)).to.deep.equal(indexes);
    expect(lines).to.deep.equal([]);
  });

  it('two processes starting together on a new database: one rebuilds, the other waits for it', async () => {
    const a = capturedLog();
    const b = capturedLog();
    const [first, second] = [await open('third', a.log), await open('third', b.log)];
    const outcomes = await Promise.all([
      matchIndexesToDatabase(first as Services, undefined, 100),
      matchIndexesToDatabase(second as Services, undefined, 100),
    ]);
    expect(outcomes.filter((outcome) => outcome === 'rebuilt')).to.have.length(1);
    expect(outcomes.filter((outcome) => outcome !== 'rebuilt')[0]).to.be.oneOf(['waited', 'unchanged']);
    expect([...a.lines, ...b.lines].map((line) => line.msg)).to.have.length(1);
    expect(await instanceOf(first as Services)).to.equal((first as Services).instanceId);
  });

  it('an index from before identities existed is given the database’s, not rebuilt (an upgrade)', async () => {
    const services = await open('third');
    await ensureSearchIndexes(services);
    const indexes = await liveIndexes(services);
    expect(indexes).to.have.length(1);
    await services.search.indices.putMapping({ index: indexes, _meta: {} });
    expect(await instanceOf(services)).to.equal(undefined);
    expect(await prepareSearchIndexes(services)).to.equal('stamped');
    expect(await liveIndexes(services)).to.deep.equal(indexes);
    expect(await instanceOf(services)).to.equal(services.instanceId);
  });

  it('the ops scripts rebuild indexes of another database before they use them (sync:verify then finds them in sync)', async () => {
    // Indexes of another database (those of the tests above, or made now).
    await ensureSearchIndexes(await open('fourth-before'));
    const services = await open('fourth');
    // Only the tags' indexes come from another database (a quicker rebuild than all five kinds).
    const tagIndexes = await indexesBehind(services.search, `${prefix()}-tags-*`);
    const others = (await indexesBehind(services.search, `${prefix()}-*`)).filter((i) => !tagIndexes.includes(i));
    expect(tagIndexes).to.have.length(3);
    expect(others).to.have.length(12);
    await services.search.indices.putMapping({ index: others, _meta: { instance: services.instanceId } });
    const result = await runScript('sync-verify', [], { MONGO_DATABASE: database('fourth'), INDEX_PREFIX: prefix() });
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout, result.stdout).to.match(
      /"msg":"the search indexes of tags were built from another database: rebuilding/,
    );
    expect(await indexesBehind(services.search, `${prefix()}-*`)).to.include.members(others);
    for (const index of await indexesBehind(services.search, `${prefix()}-tags-*`)) {
      const mapping = await services.search.indices.getMapping({ index });
      expect(mapping[index]?.mappings._meta?.instance).to.equal(services.instanceId);
    }
  });
});
