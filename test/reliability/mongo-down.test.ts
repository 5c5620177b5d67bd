import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { ApiKeyStore } from '../../src/storage/apiKeys';
import { freePort } from '../../src/dev/managedProcess';
import { testWorld } from '../support/harness';
import { envOf, kill, spawnScript, type Child } from './support/childProcess';
import { call, isErrorEnvelope, sleep, until, type Answer, type AnswerTo } from './support/http';
import { explainAnswers } from './support/loggedErrors';
import { PrivateMongo } from './support/privateServers';
import { worldConfig } from './support/privateWorld';
import { eventBody, pool, WriteStream } from './support/writes';

const ROOT = '/calendar/events/v1';
/**
 * How fast an unreachable database must be reported: MONGO_TIMEOUT_MS is 2 s, and the margin is
 * for a busy machine; the driver's own default would wait 30 s.
 */
const QUICKLY_MS = 4_000;
/** Routes that never touch the database: they keep answering (lists come from the search index). */
const STORAGE_FREE = new Set(['GET /', 'GET /doc', 'GET /doc/assets/{file}']);
/** Lists, and the list feed (`/events.ics`), are answered from the search index alone when anonymous. */
const isList = (method: string, path: string) => method === 'GET' && /^\/[a-z]+(\.ics)?$/.test(path) && path !== '/doc';

const WRITE_BODIES: Record<string, (n: number) => Record<string, unknown>> = {
  events: (n) => eventBody(`Outage event ${n}`),
  venues: (n) => ({ venue: `Outage hall ${n}` }),
  organizers: (n) => ({ organizer: `Outage crew ${n}` }),
  categories: (n) => ({ name: `Outage category ${n}` }),
  tags: (n) => ({ name: `Outage tag ${n}` }),
};

async function createAdminKey(mongoUrl: string, database: string): Promise<string> {
  const client = await MongoClient.connect(mongoUrl, { serverSelectionTimeoutMS: 10_000 });
  try {
    return (await new ApiKeyStore(client.db(database)).create('reliability administrator', 'administrator')).key;
  } finally {
    await client.close();
  }
}

describe('reliability: MongoDB-protocol server down', function () {
  this.timeout(180_000);
  let mongo: PrivateMongo;
  let api: Child | undefined;
  let indexPrefix: string | undefined;

  afterEach(async () => {
    kill(api);
    await mongo?.cleanup();
    // This run's indexes only: another run of this test may be using the shared server.
    if (indexPrefix)
      await testWorld()
        .services.search.indices.delete({ index: `${indexPrefix}*`, ignore_unavailable: true })
        .catch(() => undefined);
  });

  it('answers 503 storage-unavailable quickly on every route, stays up, and recovers by itself', async () => {
    mongo = await PrivateMongo.start('mongo-down');
    const config = worldConfig(
      { mongoUrl: mongo.url, elasticsearchUrl: testWorld().config.elasticsearch.url! },
      `mdown${Date.now().toString(36)}`,
    );
    indexPrefix = config.elasticsearch.indexPrefix;
    let key = await createAdminKey(mongo.url, config.mongo.database);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    api = spawnScript(
      'src/app/main.ts',
      envOf(config, {
        HOST: '127.0.0.1',
        PORT: String(port),
        ELASTICSEARCH_TIMEOUT_MS: '2000',
        MONGO_TIMEOUT_MS: '2000',
        // Keys read on every request, so that a keyed request always needs the database here: a
        // key verified within API_KEY_CACHE_MS lets a keyed list answer from the index for that
        // long, as an anonymous one does.
        API_KEY_CACHE_MS: '0',
      }),
    );
    const child = api;
    await until(async () => /listening on/.test(child.output()) || !child.alive(), 90_000, 'the API to listen');
    expect(child.alive(), child.output()).to.equal(true);
    const send = (method: string, path: string, body?: unknown, withKey = method !== 'GET') =>
      call(base, method, path, body, { key: withKey ? key : undefined, timeoutMs: 15_000 });
    /** Any answer but 503 storage-unavailable fails the test, printed with the error the API logged for it. */
    const expectStorageUnavailable = async (failed: AnswerTo[]) => {
      const unexpected = failed.filter((res) => res.status !== 503 || res.body?.code !== 'storage-unavailable');
      const explained = unexpected.length > 0 ? await explainAnswers(child, unexpected) : '';
      if (explained) console.log(`      unexpected answers while MongoDB was down:\n${explained}`);
      expect(
        unexpected.map((res) => `${res.request}: ${res.status} ${JSON.stringify(res.body)}`),
        explained,
      ).to.deep.equal([]);
    };

    // Records to address while the database is down.
    const seeded: Record<string, { id: number; slug?: string }> = {};
    for (const [plural, body] of Object.entries(WRITE_BODIES)) {
      const res = await call(base, 'POST', `${ROOT}/${plural}`, body(0), {
        key,
        headers: { Prefer: 'wait-for-index' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      seeded[plural] = res.body;
    }
    const doc = (await send('GET', `${ROOT}/doc`)).body as { paths: Record<string, Record<string, unknown>> };

    const requests: { op: string; method: string; path: string; body?: unknown; withKey: boolean }[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      const plural = template.split('/')[1]!;
      const record = seeded[plural];
      const path = `${ROOT}${template === '/' ? '' : template}`
        .replace('{id}', String(record?.id ?? 1))
        .replace('{slug}', encodeURIComponent(record?.slug ?? 'x'))
        .replace('{file}', 'swagger-ui.css')
        .replace('{recurrence_id}', '20270105T090000Z');
      for (const [name, operation] of Object.entries(item)) {
        const method = name.toUpperCase();
        const body = ['POST', 'PUT', 'PATCH'].includes(method) ? WRITE_BODIES[plural]?.(requests.length) : undefined;
        const op = `${method} ${template}`;
        // Required query parameters (`/suggest`'s search) are sent, so that only storage can fail.
        const required = (
          (operation as { parameters?: { in: string; name: string; required?: boolean }[] }).parameters ?? []
        )
          .filter((p) => p.in === 'query' && p.required)
          .map((p) => `${p.name}=x`);
        const target = required.length > 0 ? `${path}?${required.join('&')}` : path;
        // A route that needs a key (a write, an export, subscriptions) answers 401 without one,
        // before it needs the database: it is sent with a key only.
        const keyOnly = !(operation as { security?: object[] }).security?.some((s) => Object.keys(s).length === 0);
        requests.push({ op, method, path: target, body, withKey: method !== 'GET' || keyOnly });
        if (method === 'GET' && !keyOnly && !STORAGE_FREE.has(op))
          requests.push({ op: `${op} (with a key)`, method, path: target, withKey: true });
      }
    }

    // Writes in flight when the server goes: each either succeeds or fails as 503, never 500.
    const stream = new WriteStream(base, key, 3, 0);
    await sleep(300);
    await mongo.down();
    const answers = await pool(requests, 8, async ({ op, method, path, body, withKey }) => ({
      op,
      res: { ...(await send(method, path, body, withKey)), request: `${method} ${path} ${JSON.stringify(body)}` },
    }));
    await expectStorageUnavailable(answers.filter(({ res }) => res.status >= 500).map(({ res }) => res));
    for (const { op, res } of answers) {
      const [method, path] = op.split(' ') as [string, string];
      expect(res.ms, `${op} answered in`).to.be.below(QUICKLY_MS);
      if (STORAGE_FREE.has(op) || (isList(method, path) && !op.endsWith('(with a key)') && res.status === 200)) {
        expect(res.status, `${op}: ${JSON.stringify(res.body)}`).to.equal(200);
        continue;
      }
      expect(res.status, `${op}: ${JSON.stringify(res.body)}`).to.equal(503);
      expect(isErrorEnvelope(res.body, 503), op).to.equal(true);
      expect(res.body.code, op).to.equal('storage-unavailable');
      expect(res.headers.get('retry-after'), op).to.equal('5');
    }
    // Many at once: they fail fast together instead of piling up.
    const burst = await Promise.all(
      Array.from({ length: 60 }, async (_, i) =>
        i % 3 === 0
          ? { ...(await send('POST', `${ROOT}/venues`, { venue: `Burst ${i}` })), request: `POST ${ROOT}/venues` }
          : { ...(await send('GET', `${ROOT}/events/${seeded.events!.id}`)), request: `GET ${ROOT}/events/{id}` },
      ),
    );
    await expectStorageUnavailable(burst);
    expect(burst.map((r) => r.status)).to.deep.equal(burst.map(() => 503));
    const slowestBurst = Math.max(...burst.map((r) => r.ms));
    expect(slowestBurst).to.be.below(QUICKLY_MS + 1_000);
    const ready = await send('GET', '/readyz');
    expect(ready.status).to.equal(503);
    expect(ready.body.services).to.deep.equal({ mongo: 'down', elasticsearch: 'up' });
    expect(ready.ms, 'a probe with a 2 s timeout sees the 503').to.be.below(1_800);
    expect((await send('GET', '/healthz')).status).to.equal(200);
    const metrics = (await send('GET', '/metrics')).body as string;
    expect(metrics).to.include('calendar_dependency_up{dependency="mongo"} 0');
    expect(metrics, 'an unknown backlog is absent, not 0').not.to.match(/^calendar_sync_backlog_entries /m);
    expect(child.alive(), child.output()).to.equal(true);
    const streamed = await stream.stop();
    await expectStorageUnavailable(streamed.failed);

    // Back on the same port, empty (jongodb keeps everything in memory): no API restart.
    await mongo.up();
    const backAt = Date.now();
    let recovered: Answer | undefined;
    const recoveryMs = await until(
      async () => (recovered = await send('GET', `${ROOT}/events/${seeded.events!.id}`)).status !== 503,
      30_000,
      'reads to stop answering 503',
    );
    expect(recovered!.status, JSON.stringify(recovered!.body)).to.equal(404);
    key = await createAdminKey(mongo.url, config.mongo.database);
    const created = await call(
      base,
      'POST',
      `${ROOT}/venues`,
      { venue: 'After the outage' },
      { key, headers: { Prefer: 'wait-for-index' } },
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    // The worker backs off (up to 30 s) while it cannot claim work; then it indexes again by itself.
    const indexedMs = await until(
      async () => (await send('GET', `${ROOT}/venues?search=outage`)).body?.venues?.[0]?.id === created.body.id,
      40_000,
      'the in-process worker to index again',
    );
    expect((await send('GET', `${ROOT}/venues/${created.body.id}`)).status).to.equal(200);
    expect((await send('GET', '/readyz')).status).to.equal(200);
    expect(child.alive(), child.output()).to.equal(true);

    child.process.kill('SIGTERM');
    expect(await child.exited).to.deep.equal({ code: 0, signal: null });
    const served = answers.filter(({ res }) => res.status === 200).map(({ op }) => op);
    const slowest = Math.max(...answers.map(({ res }) => res.ms));
    console.log(
      [
        `      figures: ${answers.length} operations tried while down: ${answers.length - served.length} answered 503 storage-unavailable, ${served.length} served without the database (${served.join(', ')}); 0 other 5xx`,
        `        writes in flight when it went: ${streamed.acknowledged} acknowledged before, ${streamed.failed.length} answered 503 storage-unavailable, 0 other errors`,
        `        slowest answer ${Math.round(slowest)} ms, slowest of 60 concurrent ${Math.round(slowestBurst)} ms; process stayed up; recovered ${recoveryMs} ms after the server returned (writes at once; the in-process worker indexing again ${((Date.now() - backAt) / 1000).toFixed(1)} s after, listed ${indexedMs} ms after its write)`,
      ].join('\n'),
    );
  });
});
