import { expect } from 'chai';
import { testWorld } from '../support/harness';
import { envOf, kill, spawnScript, type Child } from './support/childProcess';
import { call, sleep, until } from './support/http';
import { compareIndexWithDatabase, describeDifferences } from './support/indexMatches';
import { PrivateMongo } from './support/privateServers';
import { openPrivateWorld, type PrivateWorld } from './support/privateWorld';
import { eventBody, lostWrites, pool, storeEvent } from './support/writes';

const ROOT = '/calendar/events/v1';
/** RELIABILITY_BURST=n changes the size of the burst (5,000 by default). */
const BURST = Number(process.env.RELIABILITY_BURST ?? 5_000);
/** Short leases, so that the killed worker's claims are taken over in seconds rather than the default 30. */
const LEASE_MS = 3_000;

describe('reliability: sync worker killed (SIGKILL) in the middle of a burst of writes', function () {
  this.timeout(300_000);
  let mongo: PrivateMongo;
  let world: PrivateWorld;
  const workers: Child[] = [];

  before(async () => {
    mongo = await PrivateMongo.start('worker-kill');
    world = await openPrivateWorld({ mongoUrl: mongo.url, elasticsearchUrl: testWorld().config.elasticsearch.url!, worker: false });
  });

  after(async () => {
    workers.forEach((worker) => kill(worker));
    await world?.close();
    await mongo?.cleanup();
  });

  function startWorker(): Child {
    const worker = spawnScript('src/worker.ts', envOf(world.config, { SYNC_LEASE_MS: String(LEASE_MS) }));
    workers.push(worker);
    return worker;
  }

  it(`converges after kill -9: every one of ${BURST} writes indexed at its latest version`, async () => {
    const { services } = world;
    const lastTitles = new Map<number, string>();
    const httpShare = Math.round(BURST * 0.1);
    const storeShare = BURST - httpShare;
    // Half the burst before the kill (creates), half after (renames of those records, and creates).
    const plan = {
      storeCreates: Math.round(storeShare * 0.4),
      httpCreates: Math.round(httpShare / 2),
      storeUpdates: Math.round(storeShare * 0.4),
      httpUpdates: httpShare - Math.round(httpShare / 2),
      lateStoreCreates: storeShare - 2 * Math.round(storeShare * 0.4),
    };
    let written = 0;
    const createInStore = async (title: string) => {
      const record = await storeEvent(services, 'en', { title });
      lastTitles.set(record.id, title);
      written++;
    };
    const createOverHttp = async (title: string) => {
      const res = await call(world.baseUrl, 'POST', `${ROOT}/events`, eventBody(title), { key: world.adminKey });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      lastTitles.set(res.body.id, title);
      written++;
    };

    const first = startWorker();
    const firstBurst = Promise.all([
      pool(range(plan.storeCreates), 12, (n) => createInStore(`burst event ${n}`)),
      pool(range(plan.httpCreates), 3, (n) => createOverHttp(`burst http event ${n}`)),
    ]);
    // Kill it while it holds leases: claimed work neither completed nor released.
    const pid = first.process.pid!;
    const owned = () => services.sync.entries.countDocuments({ owner: { $regex: `:${pid}:` } });
    let leasedAtKill = 0;
    await until(
      async () => (await services.sync.entries.countDocuments({ indexedVersion: { $gt: 0 } })) > 200 && (leasedAtKill = await owned()) > 0,
      120_000,
      'the first worker to be indexing',
    );
    first.process.kill('SIGKILL');
    const killedAt = Date.now();
    expect((await first.exited).signal).to.equal('SIGKILL');
    const indexedAtKill = await services.sync.entries.countDocuments({ indexedVersion: { $gt: 0 } });
    await firstBurst;

    const ids = [...lastTitles.keys()];
    const secondBurst = Promise.all([
      pool(range(plan.storeUpdates), 12, async (n) => {
        const id = ids[n % ids.length]!;
        const record = (await services.stores.events.get(id))!;
        const title = `burst event ${id} renamed ${n}`;
        await services.stores.events.update(record, 'en', { title });
        lastTitles.set(id, title);
        written++;
      }),
      pool(range(plan.httpUpdates), 3, async (n) => {
        const id = ids[(n * 7 + 1) % ids.length]!;
        const title = `burst event ${id} renamed over http ${n}`;
        const res = await call(world.baseUrl, 'PATCH', `${ROOT}/events/${id}`, { title }, { key: world.adminKey });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        lastTitles.set(id, title);
        written++;
      }),
      pool(range(plan.lateStoreCreates), 12, (n) => createInStore(`late burst event ${n}`)),
    ]);
    await sleep(1_000);
    const second = startWorker();
    await secondBurst;
    expect(written).to.equal(BURST);

    const convergedMs = await until(
      async () => (await services.sync.backlog()).pending === 0,
      180_000,
      'the backlog to drain after the restart',
    );
    const comparison = await compareIndexWithDatabase(services);
    expect(comparison.differences, describeDifferences(comparison)).to.deep.equal([]);
    const lost = await lostWrites(services, lastTitles);
    expect(lost, 'acknowledged writes missing from the database').to.deep.equal([]);

    second.process.kill('SIGTERM');
    expect(await second.exited, second.output()).to.deep.equal({ code: 0, signal: null });
    console.log(
      [
        `      figures: ${written} writes (${plan.httpCreates + plan.httpUpdates} over HTTP), 1 worker killed with ${leasedAtKill} entries leased and ${indexedAtKill} indexed; writes lost 0`,
        `        converged ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill (${(convergedMs / 1000).toFixed(1)} s after the burst ended); ${comparison.records} records / ${comparison.documents} index documents compared, ${comparison.differences.length} differences`,
      ].join('\n'),
    );
  });
});

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
