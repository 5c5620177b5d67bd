import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../../src/dev/managedProcess';
import { startServer } from '../../src/app/server';
import { emptyDatabase } from '../../src/tools/emptyDatabase';
import { testWorld } from '../support/harness';
import { readUntil, until } from '../reliability/support/http';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const BODY = JSON.stringify({
  title: 'sent slowly',
  start_date: '2031-01-01 10:00:00',
  end_date: '2031-01-01 11:00:00',
});

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  at: number;
}

/**
 * `npm start` as a child process, on the test world's servers with its own (new) database and
 * indexes; it prints the administrator key it creates there.
 */
function startMain(
  port: number,
  database: string,
  overrides: Record<string, string> = {},
): { child: ChildProcess; output: () => string; exited: Promise<Exit> } {
  const { config } = testWorld();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/app/main.ts'], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      MONGO_URL: config.mongo.url,
      ELASTICSEARCH_URL: config.elasticsearch.url,
      MONGO_DATABASE: database,
      BOOTSTRAP_ADMIN_KEY: 'true',
      INDEX_PREFIX: `${config.elasticsearch.indexPrefix}-main`,
      LOG_LEVEL: 'warn',
      // Startup creates the search indexes; a busy machine must not fail it.
      ELASTICSEARCH_TIMEOUT_MS: '15000',
      MONGO_TIMEOUT_MS: '15000',
      ...overrides,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, output: () => output, exited };
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Waits until `started` listens; returns what tells whether it has exited since (undefined while it runs). */
async function listening(started: ReturnType<typeof startMain>): Promise<() => Exit | undefined> {
  let exit: Exit | undefined;
  void started.exited.then((e) => (exit = e));
  await until(
    () => /calendar API listening on /.test(started.output()) || exit !== undefined,
    90_000,
    () => `"listening" (output so far: ${started.output()})`,
    50,
  );
  expect(exit, started.output()).to.equal(undefined);
  return () => exit;
}

describe('npm start: startup and graceful shutdown', function () {
  this.timeout(120_000);
  let main: ReturnType<typeof startMain> | undefined;
  let database = '';
  before(() => {
    database = `${testWorld().config.mongo.database}_main_${Date.now()}`;
  });

  after(async () => {
    if (main && main.child.exitCode === null && main.child.signalCode === null) main.child.kill('SIGKILL');
    const { services, config } = testWorld();
    await emptyDatabase({ ...services, db: services.db.client.db(database) }).catch(() => undefined);
    await services.search.indices
      .delete({ index: `${config.elasticsearch.indexPrefix}-main-*`, ignore_unavailable: true })
      .catch(() => undefined);
  });

  it('serves with both services ready, then on SIGTERM finishes in-flight requests and exits 0', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    main = startMain(port, database);
    const started = main;
    const exitOf = await listening(started);
    expect(started.output()).to.include(`calendar API listening on ${base}/calendar/events/v1`);

    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).to.equal(200);
    expect(((await ready.json()) as { services: unknown }).services).to.deep.equal({
      mongo: 'up',
      elasticsearch: 'up',
    });
    // Leaves an idle keep-alive connection in fetch's pool: it must not hold the shutdown up.
    const index = await fetch(`${base}/calendar/events/v1`);
    expect(index.status).to.equal(200);
    expect(((await index.json()) as { namespace: string }).namespace).to.equal('calendar/events/v1');

    // A request in flight: headers and half the body sent before SIGTERM, the rest after. The
    // server's "100 Continue" says it has parsed the request: no sleep guessing when it has.
    const key = /^\s+(cal_\S+)$/m.exec(started.output())?.[1];
    expect(key, started.output()).to.be.a('string');
    const inFlight = await connect(port);
    let response = '';
    inFlight.on('data', (chunk: Buffer) => (response += chunk.toString()));
    const half = Math.floor(BODY.length / 2);
    inFlight.write(
      `POST /calendar/events/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nExpect: 100-continue\r\n` +
        `Content-Length: ${Buffer.byteLength(BODY)}\r\n\r\n`,
    );
    await until(
      () => response.includes('100 Continue'),
      10_000,
      () => `"100 Continue" (${response})`,
      50,
    );
    response = '';
    inFlight.write(BODY.slice(0, half));

    const signalledAt = Date.now();
    started.child.kill('SIGTERM');
    // New connections are refused once the server stops listening, while the request is still served.
    const refused = await readUntil(
      () =>
        connect(port).then(
          (socket) => (socket.destroy(), false),
          (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED',
        ),
      (isRefused) => isRefused || exitOf() !== undefined,
      5_000,
      50,
    );
    expect(exitOf(), 'exited before the in-flight request finished').to.equal(undefined);
    expect(refused, 'new connections are refused while stopping').to.equal(true);

    inFlight.write(BODY.slice(half));
    await until(
      () => response.includes('\r\n\r\n') && response.includes('}'),
      10_000,
      () => `a response (${response})`,
      50,
    );
    expect(response).to.match(/^HTTP\/1\.1 201 /);
    // The client keeps its connection open: the server must end it rather than idle until timeout.
    expect(response.toLowerCase()).to.include('\r\nconnection: close\r\n');
    expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).to.include({
      title: 'sent slowly',
      start_date: '2031-01-01 10:00:00',
    });

    const { code, signal, at } = await started.exited;
    expect({ code, signal }, started.output()).to.deep.equal({ code: 0, signal: null });
    // Under the 8 s grace after which the process would be ended with the connection still open.
    expect(at - signalledAt, 'seconds from SIGTERM to exit').to.be.below(7_000);
  });

  it('creates the bootstrap administrator key on the first start only, not again on the same database', async () => {
    const { services, config } = testWorld();
    const bootDatabase = `${database}_boot`;
    const keys = services.db.client.db(bootDatabase).collection('api_keys');
    const prefix = { INDEX_PREFIX: `${config.elasticsearch.indexPrefix}-boot` };
    let running: ReturnType<typeof startMain> | undefined;
    /** Starts `npm start` on the boot database and waits until it listens. */
    const startListening = async () => {
      const port = await freePort();
      running = startMain(port, bootDatabase, prefix);
      await listening(running);
      return { started: running, base: `http://127.0.0.1:${port}` };
    };
    const stop = async (started: ReturnType<typeof startMain>) => {
      started.child.kill('SIGTERM');
      const { code, signal } = await started.exited;
      expect({ code, signal }, started.output()).to.deep.equal({ code: 0, signal: null });
    };
    const authenticated = (base: string, key: string) =>
      fetch(`${base}/calendar/events/v1/events?per_page=1`, { headers: { Authorization: `Bearer ${key}` } });
    try {
      expect(await keys.countDocuments({}), 'a new database').to.equal(0);
      const first = await startListening();
      const key = /^\s+(cal_\S+)$/m.exec(first.started.output())?.[1];
      expect(key, first.started.output()).to.be.a('string');
      expect(await keys.countDocuments({})).to.equal(1);
      const stored = await keys.find({}, { projection: { _id: 1, hash: 1, role: 1 } }).toArray();
      expect(stored[0]?.role).to.equal('administrator');
      await stop(first.started);

      const second = await startListening();
      expect(second.started.output(), 'a second key was printed').not.to.include('cal_');
      expect(second.started.output()).not.to.include('No API keys existed');
      expect(await keys.find({}, { projection: { _id: 1, hash: 1, role: 1 } }).toArray()).to.deep.equal(stored);
      // The first start's key still opens the second instance (a wrong key is 401 even on reads).
      expect((await authenticated(second.base, key!)).status).to.equal(200);
      const wrong = `${key!.slice(0, -1)}${key!.endsWith('A') ? 'B' : 'A'}`;
      expect((await authenticated(second.base, wrong)).status).to.equal(401);
      await stop(second.started);
    } finally {
      if (running && running.child.exitCode === null && running.child.signalCode === null)
        running.child.kill('SIGKILL');
      // jongodb can neither drop nor list databases: this one is emptied like the test world's.
      await emptyDatabase({ ...services, db: services.db.client.db(bootDatabase) });
      await services.search.indices
        .delete({ index: `${prefix.INDEX_PREFIX}-*`, ignore_unavailable: true })
        .catch(() => undefined);
    }
  });
});

describe('npm start: MongoDB unreachable', () => {
  it('stops with one line naming MongoDB, its address and the setting, exit 1', async () => {
    const unreachable = { MONGO_URL: 'mongodb://127.0.0.1:1/', MONGO_TIMEOUT_MS: '500', LOG_LEVEL: 'silent' };
    const started = startMain(await freePort(), 'never_created', unreachable);
    const { code } = await started.exited;
    expect(code, started.output()).to.equal(1);
    expect(started.output()).to.match(
      /^calendar: could not start: could not connect to MongoDB at mongodb:\/\/127\.0\.0\.1:1\/ \(.+\): start it \(npm run services:start\) or set MONGO_URL$/m,
    );
  });
});

describe('server shutdown deadline', () => {
  it('closes the connection of a request still in flight once the grace period is over', async () => {
    const running = await startServer(testWorld().services, '127.0.0.1', 0);
    const port = Number(new URL(running.url).port);
    const slow = await connect(port);
    let response = '';
    slow.on('data', (chunk: Buffer) => (response += chunk.toString()));
    const closed = new Promise<number>((resolve) => slow.on('close', () => resolve(Date.now())));
    // A keyed write whose body never comes in full: only the deadline ends this request. Its
    // "100 Continue" says the server has parsed it (an idle connection would be closed at once).
    slow.write(
      `POST /calendar/events/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${testWorld().adminKey}\r\n` +
        `Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2000\r\n\r\n`,
    );
    await until(
      () => response.includes('100 Continue'),
      10_000,
      () => `"100 Continue" (${response})`,
      50,
    );
    response = '';
    slow.write('{"title":');
    const started = Date.now();
    await running.close(500);
    const stoppedIn = Date.now() - started;
    expect(stoppedIn, 'ms from close to closed').to.be.within(400, 3_000);
    expect((await closed) - started).to.be.below(3_000);
    expect(response, 'no answer: the body never came').to.equal('');
  });
});
