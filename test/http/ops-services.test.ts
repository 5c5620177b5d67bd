import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { indexDataDir } from '../../src/dev/embeddedServices';
import { freePort, isAlive } from '../../src/dev/managedProcess';
import { PROJECT_ROOT, runEntry, startEntry, type Started } from '../support/processes';
import { readUntil } from '../reliability/support/http';

/**
 * The embedded servers as a user meets them: `npm run services:start` on ports of its own (the
 * shared ones are taken), `npm start` reusing them, jongodb lost while Elasticsearch keeps its
 * indexes, a restart, `services:stop`. Starts Elasticsearch twice: the slowest tests of the suite.
 */
describe('embedded servers end to end: services:start, npm start, a restart that loses the database', function () {
  this.timeout(300_000);
  const instance = `e2e-${process.pid}`;
  let env: Record<string, string>;
  let pids: { elasticsearch: number; mongo: number };
  let firstId: number;
  const running: Started[] = [];

  const services = (command: string) => runEntry('scripts/services.ts', [command], env, 290_000);

  /** `npm start` over the running services: its base URL and the administrator key it printed. */
  async function startApi(): Promise<{ base: string; key: string; output: string }> {
    const port = await freePort();
    const api = startEntry('src/dev/start.ts', { ...env, PORT: String(port) });
    running.push(api);
    await api.waitFor(/calendar API listening on /);
    const key = /^ {2}(\S+)$/m.exec(api.output())?.[1] as string;
    return { base: `http://127.0.0.1:${port}/calendar/events/v1`, key, output: api.output() };
  }

  async function stopApis(): Promise<void> {
    for (const api of running.splice(0)) expect(await api.stop()).to.equal(0);
  }

  const listed = async (base: string) => {
    let res = await fetch(`${base}/events?search=harbour`);
    // Lists answer 503 until the new indexes' shards have started.
    for (let tries = 0; res.status === 503 && tries < 240; tries++) {
      await sleep(250);
      res = await fetch(`${base}/events?search=harbour`);
    }
    expect(res.status).to.equal(200);
    return ((await res.json()) as { events: { id: number; title: string }[] }).events.map((e) => [e.id, e.title]);
  };

  /** The list once it shows `expected`: a busy machine may index a write past its wait-for-index limit. */
  async function listedAs(base: string, expected: [number, string][]): Promise<void> {
    const seen = await readUntil(
      () => listed(base),
      (events) => JSON.stringify(events) === JSON.stringify(expected),
      60_000,
      250,
    );
    expect(seen).to.deep.equal(expected);
  }

  async function createEvent(base: string, key: string, title: string): Promise<number> {
    const res = await fetch(`${base}/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Prefer: 'wait-for-index' },
      body: JSON.stringify({ title, start_date: '2027-07-14 20:00:00', end_date: '2027-07-14 23:00:00' }),
    });
    expect(res.status).to.equal(201);
    return ((await res.json()) as { id: number }).id;
  }

  before(async () => {
    env = {
      EMBEDDED_INSTANCE: instance,
      EMBEDDED_ELASTICSEARCH_PORT: String(await freePort()),
      EMBEDDED_MONGO_PORT: String(await freePort()),
    };
  });

  after(async function () {
    this.timeout(120_000);
    for (const api of running.splice(0)) await api.stop();
    await services('stop');
    await rm(path.join(PROJECT_ROOT, '.services', instance), { recursive: true, force: true });
  });

  it('services:start reports success once both servers it started answer, with their pids; status says so', async () => {
    const started = await services('start');
    expect(started.code, started.stdout + started.stderr).to.equal(0);
    const es = new RegExp(`^Elasticsearch: http://127.0.0.1:${env.EMBEDDED_ELASTICSEARCH_PORT} \\(pid (\\d+)\\)$`, 'm');
    const mongo = new RegExp(
      `^MongoDB protocol \\(jongodb\\): mongodb://127.0.0.1:${env.EMBEDDED_MONGO_PORT}/\\?replicaSet=rs0 \\(pid (\\d+)\\)$`,
      'm',
    );
    pids = {
      elasticsearch: Number(es.exec(started.stdout)?.[1]),
      mongo: Number(mongo.exec(started.stdout)?.[1]),
    };
    expect(isAlive(pids.elasticsearch) && isAlive(pids.mongo)).to.equal(true);
    const status = await services('status');
    expect(status.code).to.equal(0);
    expect(status.stdout).to.match(/^Elasticsearch: running: /m);
    expect(status.stdout).to.match(/^MongoDB protocol \(jongodb\): running: /m);
  });

  it('npm start reuses them, says the data is kept in memory only, and serves', async () => {
    const { base, key, output } = await startApi();
    expect(output).to.include(
      'Data is kept in memory only (embedded jongodb): every record and API key is lost when "npm run services:stop" stops them.',
    );
    expect(output).to.include('docker compose up -d mongo elasticsearch');
    firstId = await createEvent(base, key, 'Harbour festival');
    await listedAs(base, [[firstId, 'Harbour festival']]);
    await stopApis();
  });

  it('npm run worker finds them too, with no URL set', async () => {
    const worker = startEntry('src/dev/worker.ts', env);
    running.push(worker);
    await worker.waitFor(/"msg":"sync worker started"/);
    await stopApis();
  });

  it('jongodb gone, Elasticsearch alive: status says which, and exits 1', async () => {
    process.kill(pids.mongo, 'SIGKILL');
    while (isAlive(pids.mongo)) await sleep(50);
    const status = await services('status');
    expect(status.code).to.equal(1);
    expect(status.stdout).to.match(/^Elasticsearch: running: /m);
    expect(status.stdout).to.match(/^MongoDB protocol \(jongodb\): not running \(its process is gone\): /m);
  });

  it('services:start again: the lone Elasticsearch and its index data go; the list serves no stale record, a new record reusing the ID is indexed', async () => {
    const restarted = await services('start');
    expect(restarted.code, restarted.stdout + restarted.stderr).to.equal(0);
    expect(restarted.stdout).to.include(
      `stopping Elasticsearch (pid ${pids.elasticsearch}): its partner is gone, both start again`,
    );
    expect(restarted.stdout).to.match(
      /^discarding the Elasticsearch data in .+: it indexed a jongodb database that is gone$/m,
    );
    expect(isAlive(pids.elasticsearch)).to.equal(false);
    const { base, key } = await startApi();
    expect(await listed(base)).to.deep.equal([]);
    const id = await createEvent(base, key, 'Harbour market');
    expect(id).to.equal(firstId);
    await listedAs(base, [[id, 'Harbour market']]);
    await stopApis();
  });

  it('services:stop stops both and discards the index data; status then says not running', async () => {
    const stopped = await services('stop');
    expect(stopped.code).to.equal(0);
    expect(stopped.stdout).to.match(/services stopped$/m);
    expect(existsSync(indexDataDir(PROJECT_ROOT, instance))).to.equal(false);
    const status = await services('status');
    expect([status.code, status.stdout.trim()]).to.deep.equal([
      1,
      'not running (start them with "npm run services:start")',
    ]);
  });
});
