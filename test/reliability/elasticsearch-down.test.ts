import { expect } from 'chai';
import { testWorld } from '../support/harness';
import { call, isErrorEnvelope, sleep, until, type Answer } from './support/http';
import { formatVerifyReport, verifySync } from '../../src/tools/verify/verify';
import { compareIndexWithDatabase, describeDifferences } from './support/indexMatches';
import {
  PrivateMongo,
  privateElasticsearch,
  proxiedElasticsearch,
  type FaultyElasticsearch,
} from './support/privateServers';
import { openPrivateWorld, type PrivateWorld } from './support/privateWorld';
import { eventBody, lostWrites, WriteStream } from './support/writes';

const ROOT = '/calendar/events/v1';
const LISTS = ['/events', '/venues', '/organizers', '/categories', '/tags', '/events?search=stream'];
/** RELIABILITY_REAL_ES=1: stop and restart a real private Elasticsearch process (minutes on a small machine). */
const REAL_ES = process.env.RELIABILITY_REAL_ES === '1';

describe('reliability: Elasticsearch down during a stream of writes', function () {
  this.timeout(REAL_ES ? 900_000 : 180_000);
  let mongo: PrivateMongo;
  let es: FaultyElasticsearch;
  let world: PrivateWorld;
  const get = (path: string) => call(world.baseUrl, 'GET', path);

  before(async function () {
    mongo = await PrivateMongo.start('es-down');
    es = REAL_ES
      ? await privateElasticsearch('es-down')
      : await proxiedElasticsearch(testWorld().config.elasticsearch.url!);
    world = await openPrivateWorld({ mongoUrl: mongo.url, elasticsearchUrl: es.url });
  });

  after(async () => {
    // Back up first, so that closing the world can delete its indexes even after a failure.
    await es?.up().catch(() => undefined);
    await world?.close();
    await es?.cleanup();
    await mongo?.cleanup();
  });

  /** What must hold while the index cannot be reached (refused or hanging). */
  async function checkDegraded(event: { id: number; slug: string }, phase: string): Promise<number> {
    const byId = await get(`${ROOT}/events/${event.id}`);
    expect(byId.status, `${phase}: read by ID`).to.equal(200);
    const bySlug = await get(`${ROOT}/events/by-slug/${event.slug}`);
    expect(bySlug.status, `${phase}: read by slug`).to.equal(200);
    expect(bySlug.body.id).to.equal(event.id);
    let slowest = 0;
    const lists: Answer[] = await Promise.all(LISTS.map((path) => get(`${ROOT}${path}`)));
    lists.forEach((res, i) => {
      expect(res.status, `${phase}: GET ${LISTS[i]} ${JSON.stringify(res.body)}`).to.equal(503);
      expect(isErrorEnvelope(res.body, 503)).to.equal(true);
      expect(res.body.code).to.equal('search-unavailable');
      expect(res.headers.get('retry-after')).to.equal('5');
      // Lists give up after 1.5 s; waiting out the client's 2 s timeout and its retry would take 4 s.
      expect(res.ms, `${phase}: GET ${LISTS[i]} answered in`).to.be.below(3_000);
      slowest = Math.max(slowest, res.ms);
    });
    const ready = await get('/readyz');
    expect(ready.status, phase).to.equal(503);
    expect(ready.body.services).to.deep.equal({ mongo: 'up', elasticsearch: 'down' });
    expect(ready.ms).to.be.below(2_000);
    const metrics = await call(world.baseUrl, 'GET', '/metrics');
    expect(metrics.body).to.include('calendar_dependency_up{dependency="elasticsearch"} 0');
    return slowest;
  }

  it('keeps writes and reads by ID and slug working, answers lists 503 fast, then catches up by itself', async () => {
    const seeded = await call(world.baseUrl, 'POST', `${ROOT}/events`, eventBody('Before the outage'), {
      key: world.adminKey,
      headers: { Prefer: 'wait-for-index' },
    });
    expect(seeded.status).to.equal(201);
    expect((await get(`${ROOT}/events?search=outage`)).status).to.equal(200);

    const stream = new WriteStream(world.baseUrl, world.adminKey);
    await sleep(500);
    const outageStarted = Date.now();
    await es.down();
    await sleep(300);
    const acknowledgedBefore = stream.figures.acknowledged;
    let slowestList = await checkDegraded(seeded.body, 'stopped');
    const duringOutage = await call(world.baseUrl, 'POST', `${ROOT}/events`, eventBody('Written during the outage'), {
      key: world.adminKey,
    });
    expect(duringOutage.status).to.equal(201);
    expect((await get(`${ROOT}/events/${duringOutage.body.id}`)).status).to.equal(200);
    await sleep(2_000);
    slowestList = Math.max(slowestList, await checkDegraded(duringOutage.body, 'stopped, later'));
    if (es.hang) {
      // A frozen server is worse than a stopped one: nothing is refused, everything waits.
      await es.hang();
      await sleep(300);
      slowestList = Math.max(slowestList, await checkDegraded(seeded.body, 'hanging'));
      await sleep(2_000);
    }
    expect(stream.figures.acknowledged - acknowledgedBefore, 'writes acknowledged during the outage').to.be.above(10);
    expect((await world.services.sync.backlog()).pending, 'backlog before the restart').to.be.above(0);

    await es.up();
    const outageMs = Date.now() - outageStarted;
    const writesDuringOutage = stream.figures.acknowledged - acknowledgedBefore;
    const backlogAtRestart = (await world.services.sync.backlog()).pending;
    await sleep(500);
    const figures = await stream.stop();
    expect(
      figures.failed.map((r) => `${r.status} ${JSON.stringify(r.body)}`),
      'writes refused during the outage',
    ).to.deep.equal([]);

    const drainMs = await until(
      async () => (await world.services.sync.backlog()).pending === 0,
      REAL_ES ? 300_000 : 90_000,
      'the sync backlog to drain after Elasticsearch came back',
    );
    const listed = await get(`${ROOT}/events?search=outage`);
    expect(listed.status).to.equal(200);
    const verified = await verifySync(world.services);
    expect(verified.inSync, formatVerifyReport(verified).join('\n')).to.equal(true);
    const comparison = await compareIndexWithDatabase(world.services);
    expect(comparison.differences, describeDifferences(comparison)).to.deep.equal([]);
    const lost = await lostWrites(world.services, figures.lastTitles);
    expect(lost, 'acknowledged writes missing from the database').to.deep.equal([]);

    console.log(
      [
        `      figures (${es.description}):`,
        `        outage ${(outageMs / 1000).toFixed(1)} s${es.hang ? ' (refused, then hanging)' : ''}; writes acknowledged ${figures.acknowledged} (${writesDuringOutage} during the outage), refused ${figures.failed.length}, lost ${lost.length}`,
        `        slowest list answer while down ${Math.round(slowestList)} ms (503 search-unavailable); backlog when it came back ${backlogAtRestart}, drained in ${(drainMs / 1000).toFixed(1)} s`,
        `        index vs database: ${comparison.records} records, ${comparison.documents} documents compared, ${comparison.differences.length} differences; sync:verify in sync`,
      ].join('\n'),
    );
  });
});
