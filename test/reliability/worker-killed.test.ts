import { expect } from 'chai';
import { testWorld } from '../support/harness';
import { envOf, kill, spawnScript, type Child } from './support/childProcess';
import { call, sleep, until } from './support/http';
import { formatVerifyReport, verifySync } from '../../src/tools/verify/verify';
import { compareIndexWithDatabase, describeDifferences } from './support/indexMatches';
import { PrivateMongo } from './support/privateServers';
import { openPrivateWorld, type PrivateWorld } from './support/privateWorld';
import { storeEventIn } from '../support/records';
import { eventBody, lostWrites, pool } from './support/writes';

const ROOT = '/calendar/events/v1';
/**
 * Writes in the burst: 1,000 by default; RELIABILITY_BURST=5000 for the full scenario (about ten
 * minutes here: every write to jongodb costs time proportional to the collection's size).
 */
const BURST = Number(process.env.RELIABILITY_BURST ?? 1_000);
/** Short leases, so that the killed worker's claims are taken over in seconds rather than the default 30. */
const LEASE_MS = 3_000;

describe('reliability: sync worker killed (SIGKILL) in the middle of a burst of writes', function () {
  this.timeout(Math.max(240_000, BURST * 600));
  let mongo: PrivateMongo;
  let world: PrivateWorld;
  const workers: Child[] = [];

  before(async () => {
    mongo = await PrivateMongo.start('worker-kill');
    world = await openPrivateWorld({
      mongoUrl: mongo.url,
      elasticsearchUrl: testWorld().config.elasticsearch.url!,
      worker: false,
    });
  });

  after(async () => {
    workers.forEach((worker) => kill(worker));
    await world?.close();
    await mongo?.cleanup();
  });

  function startWorker(): Child {
    const worker = spawnScript('src/app/worker.ts', envOf(world.config, { SYNC_LEASE_MS: String(LEASE_MS) }));
    workers.push(worker);
    return worker;
  }

  it(`converges after kill -9: every one of ${BURST} writes indexed at its latest version`, async () => {
    const { services } = world;
    const lastTitles = new Map<number, string>();
    // Creates, then renames of random records (several per record: the latest version must win);
    // a tenth of each over HTTP, the rest through the stores.
    const records = Math.max(100, Math.round(BURST / 12));
    const httpCreates = Math.round(records / 10);
    const updates = BURST - records;
    const httpUpdates = Math.round(updates / 10);
    let written = 0;

    const first = startWorker();
    const started = Date.now();
    await Promise.all([
      pool(range(records - httpCreates), 8, async (n) => {
        const title = `burst event ${n}`;
        const record = await storeEventIn(services, 'en', { title });
        lastTitles.set(record.id, title);
        written++;
      }),
      pool(range(httpCreates), 2, async (n) => {
        const title = `burst http event ${n}`;
        const res = await call(world.baseUrl, 'POST', `${ROOT}/events`, eventBody(title), { key: world.adminKey });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        lastTitles.set(res.body.id, title);
        written++;
      }),
    ]);
    const ids = [...lastTitles.keys()];
    const pick = (n: number) => ids[(n * 7919) % ids.length]!;
    const renames = Promise.all([
      pool(range(updates - httpUpdates), 8, async (n) => {
        const id = pick(n);
        const title = `burst event ${id} renamed ${n}`;
        // In the API's process, so queued with its writes of the same event (else one may be 409).
        const { events } = services.stores;
        await events.exclusive(id, async () => events.update((await events.get(id))!, 'en', { title }));
        lastTitles.set(id, title);
        written++;
      }),
      pool(range(httpUpdates), 2, async (n) => {
        const id = pick(n + 1);
        const title = `burst event ${id} renamed over http ${n}`;
        const res = await call(world.baseUrl, 'PATCH', `${ROOT}/events/${id}`, { title }, { key: world.adminKey });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        lastTitles.set(id, title);
        written++;
      }),
    ]);

    // Killed while it holds leases: claimed work neither completed nor released.
    const pid = first.process.pid!;
    let leasedAtKill = 0;
    await until(
      async () =>
        written > records + updates / 4 &&
        (leasedAtKill = await services.sync.entries.countDocuments({ owner: { $regex: `:${pid}:` } })) > 0,
      120_000 * Math.max(1, BURST / 1_000),
      () =>
        `the first worker to hold leases in the middle of the burst (${written} writes done, ${leasedAtKill} leased)`,
    );
    first.process.kill('SIGKILL');
    const writtenAtKill = written;
    const killedAt = Date.now();
    expect((await first.exited).signal).to.equal('SIGKILL');
    await sleep(1_000);
    const second = startWorker();
    await renames;
    expect(written).to.equal(BURST);
    const burstMs = Date.now() - started;

    const convergedMs = await until(
      async () => (await services.sync.backlog()).pending === 0,
      180_000 * Math.max(1, BURST / 1_000),
      'the backlog to drain after the restart',
    );
    const verified = await verifySync(world.services);
    expect(verified.inSync, formatVerifyReport(verified).join('\n')).to.equal(true);
    const comparison = await compareIndexWithDatabase(services);
    expect(comparison.differences, describeDifferences(comparison)).to.deep.equal([]);
    const lost = await lostWrites(services, lastTitles);
    expect(lost, 'acknowledged writes missing from the database').to.deep.equal([]);

    second.process.kill('SIGTERM');
    expect(await second.exited, second.output()).to.deep.equal({ code: 0, signal: null });
    console.log(
      [
        `      figures: ${written} writes in ${(burstMs / 1000).toFixed(1)} s (${records} creates, ${updates} renames; ${httpCreates + httpUpdates} over HTTP); worker killed after ${writtenAtKill} writes holding ${leasedAtKill} leases; writes lost 0`,
        `        converged ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill (${(convergedMs / 1000).toFixed(1)} s after the burst); ${comparison.records} records / ${comparison.documents} index documents compared, ${comparison.differences.length} differences; sync:verify in sync`,
      ].join('\n'),
    );
  });
});

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
