import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { allRoutes } from '../../src/api/routeTable';
import { startServer, type RunningServer } from '../../src/app/server';
import type { Config } from '../../config';
import { callers, expectUnauthorized, minimalBody, type Callers } from '../support/access';
import { expectError } from '../support/errors';
import { request, ROOT, type ApiResponse } from '../support/api';
import { testWorld } from '../support/harness';
import { create, searchReady, settle, unique } from '../support/lists';

/**
 * API keys and abuse limits (CONTRACT part 6): unknown, malformed, revoked and missing keys on
 * every route; keys stored only as hashes; per-key and per-address write limits and the
 * failed-authentication limit, on a server of this test's own with the limits turned on.
 */

const WELL_FORMED_UNKNOWN = `cal_${'A'.repeat(43)}`;
const BAD_CREDENTIALS: [string, string][] = [
  ['an unknown key', `Bearer ${WELL_FORMED_UNKNOWN}`],
  ['a malformed key', 'Bearer not-a-key'],
  ['an empty bearer', 'Bearer '],
  ['another scheme', 'Basic dXNlcjpwYXNz'],
];
const PROBES: [string, string][] = [
  ['GET', ''],
  ['GET', '/events'],
  ['GET', '/venues/1'],
  ['POST', '/events'],
  ['PATCH', '/organizers/1'],
  ['DELETE', '/categories/1'],
];

describe('access: API keys', () => {
  let who: Callers;
  before(async () => {
    who = await callers();
  });

  for (const [label, header] of BAD_CREDENTIALS) {
    for (const [method, path] of PROBES) {
      it(`${method} ${path || '/'} with ${label} → 401 with WWW-Authenticate`, async () => {
        const res = await request(method, `${ROOT}${path}`, method === 'GET' ? undefined : {}, {
          headers: { Authorization: header },
        });
        expectUnauthorized(res, `${method} ${path}`);
      });
    }
  }

  it('refuses a revoked key on reads and writes, having accepted it before', async () => {
    const { key, record } = await testWorld().services.apiKeys.create(unique('revoked'), 'author');
    const before = await request('POST', `${ROOT}/venues`, { venue: unique('Before revocation') }, { key });
    expect([before.status, before.body.author]).to.deep.equal([201, record.userId]);
    expect(await testWorld().services.apiKeys.revoke(record.id)).to.equal(true);
    expectUnauthorized(
      await request('POST', `${ROOT}/venues`, { venue: unique('After revocation') }, { key }),
      'write',
    );
    expectUnauthorized(await request('GET', `${ROOT}/venues/${before.body.id}`, undefined, { key }), 'read');
    expect((await request('GET', `${ROOT}/venues/${before.body.id}`)).status).to.equal(200);
  });

  it('a key revoked by another process stops working within API_KEY_CACHE_MS, trusted until then', async () => {
    const { services } = testWorld();
    const { keyCacheMs } = services.config.auth;
    expect(keyCacheMs, 'the default applies in tests').to.equal(1_000);
    const { key, record } = await services.apiKeys.create(unique('revoked elsewhere'), 'author');
    // The key is remembered from some time between the request and its answer.
    const asked = Date.now();
    expect((await request('GET', ROOT, undefined, { key })).status).to.equal(200);
    const answered = Date.now();
    // Another process's revocation: the document changes, this process's store is not told.
    await services.db.collection('api_keys').updateOne({ id: record.id }, { $set: { revokedAt: new Date() } });
    const trusted = await request('GET', ROOT, undefined, { key });
    if (Date.now() - asked < keyCacheMs / 2) expect(trusted.status, 'remembered, not read again').to.equal(200);
    await sleep(keyCacheMs - (Date.now() - answered) + 50);
    expectUnauthorized(await request('GET', ROOT, undefined, { key }), 'read');
    expectUnauthorized(await request('POST', `${ROOT}/venues`, { venue: unique('After') }, { key }), 'write');
  });

  it('stores keys only as hashes', async () => {
    const { key, record } = await testWorld().services.apiKeys.create(unique('hashed'), 'editor');
    const doc = await testWorld().services.db.collection('api_keys').findOne({ id: record.id });
    expect(doc)
      .to.have.property('hash')
      .that.matches(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(doc)).not.to.include(key);
    expect(JSON.stringify(await testWorld().services.apiKeys.list())).not.to.include(key);
  });

  it('answers 401 on every write route without a key, and lets any role past authentication', async () => {
    // The route table is only known once the test world runs: one case walks all of it.
    const writes = allRoutes(testWorld().services).flatMap((route) =>
      route.access === 'write' ? route.methods.map((method) => [method, route.path] as const) : [],
    );
    expect(writes.length).to.be.above(20);
    const concrete = (path: string) => path.replace(':id', '999999999').replace(':slug', 'no-such-slug');
    for (const [method, path] of writes) {
      // Reads that need a key (the webhook subscriptions) are sent without a body.
      const body = method === 'GET' ? undefined : {};
      expectUnauthorized(await request(method, `${ROOT}${concrete(path)}`, body), `${method} ${path}`);
      const keyed = await request(method, `${ROOT}${concrete(path)}`, body, { key: who.contributor.key });
      expect(keyed.status, `${method} ${path} ${JSON.stringify(keyed.body)}`).to.be.oneOf([400, 403, 404]);
      expect(keyed.body.code, `${method} ${path}`).to.be.a('string');
    }
  });
});

describe('access: rate limits', () => {
  let server: RunningServer | undefined;
  let who: Callers;

  before(async () => {
    who = await callers();
    await searchReady();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** A server of this test's own on the shared services, with the limits on. */
  async function limited(
    limits: Omit<Config['rateLimit'], 'enabled' | 'trustedProxies'> & { trustedProxies?: number },
  ): Promise<RunningServer> {
    const { services } = testWorld();
    server = await startServer(
      { ...services, config: { ...services.config, rateLimit: { enabled: true, trustedProxies: 0, ...limits } } },
      '127.0.0.1',
      0,
    );
    return server;
  }
  async function send(
    method: string,
    path: string,
    key?: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...extra };
    if (key !== undefined) headers.Authorization = `Bearer ${key}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${server!.url}${ROOT}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }
  function expectLimited(res: ApiResponse, maxSeconds: number, where: string): void {
    expectError(res, 429, 'rest_rate_limited', where);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter, `${where} Retry-After`).to.be.within(1, maxSeconds);
  }

  it('is off on the test server (and so in every other test)', () => {
    expect(testWorld().config.rateLimit.enabled).to.equal(false);
  });

  it('limits writes per API key, leaving other keys and reads alone', async () => {
    await limited({ writesPerKey: 3, writesPerIp: 100, authFailuresPerIp: 100, walksPerIp: 100 });
    const name = unique('Limited venue');
    for (let i = 1; i <= 3; i++)
      expect((await send('POST', '/venues', who.author.key, { venue: `${name} ${i}` })).status).to.equal(201);
    const refused = await send('POST', '/venues', who.author.key, { venue: `${name} 4` });
    expectLimited(refused, 20, 'fourth write');
    expect(refused.body.message).to.include('API key');
    expect(await testWorld().services.stores.venues.docs.countDocuments({ venue: `${name} 4` })).to.equal(0);
    expectLimited(await send('DELETE', '/venues/1', who.author.key), 20, 'delete');
    expect((await send('GET', '/venues', who.author.key)).status).to.equal(200);
    expect((await send('POST', '/venues', who.editor.key, { venue: `${name} other key` })).status).to.equal(201);
  });

  it('limits writes per client address, whatever the key (anonymous attempts count)', async () => {
    await limited({ writesPerKey: 100, writesPerIp: 3, authFailuresPerIp: 100, walksPerIp: 100 });
    expectUnauthorized(await send('POST', '/venues', undefined, { venue: unique('Anonymous') }), 'anonymous');
    expect((await send('POST', '/venues', who.author.key, { venue: unique('First') })).status).to.equal(201);
    expect((await send('POST', '/venues', who.editor.key, { venue: unique('Second') })).status).to.equal(201);
    const refused = await send('POST', '/venues', who.administrator.key, { venue: unique('Third') });
    expectLimited(refused, 20, 'per address');
    expect(refused.body.message).to.include('address');
    expect((await send('GET', '/venues')).status).to.equal(200);
  });

  it('limits failed authentications per address: then even a good key waits, anonymous reads do not', async () => {
    await limited({ writesPerKey: 100, writesPerIp: 100, authFailuresPerIp: 2, walksPerIp: 100 });
    for (let i = 0; i < 2; i++)
      expectUnauthorized(await send('GET', '/events', WELL_FORMED_UNKNOWN), `failure ${i + 1}`);
    expectLimited(await send('GET', '/events', WELL_FORMED_UNKNOWN), 30, 'third failure');
    const good = await send('POST', '/venues', who.administrator.key, { venue: unique('Blocked') });
    expectLimited(good, 30, 'good key from a blocked address');
    expect(good.body.message).to.include('failed authentications');
    expect((await send('GET', '/events')).status).to.equal(200);
  });

  it('counts wrong event passwords as failed authentications: guesses are limited per address', async () => {
    await limited({ writesPerKey: 100, writesPerIp: 100, authFailuresPerIp: 2, walksPerIp: 100, trustedProxies: 1 });
    const client = (address: string) => ({ 'X-Forwarded-For': address });
    const created = await send(
      'POST',
      '/events',
      who.administrator.key,
      { ...minimalBody('events', unique('Guarded')), password: 'members only' },
      client('198.51.100.9'),
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const read = (password: string | undefined, address: string) =>
      send(
        'GET',
        `/events/${created.body.id}${password === undefined ? '' : `?password=${encodeURIComponent(password)}`}`,
        undefined,
        undefined,
        client(address),
      );
    // Reading without a password is no guess.
    for (let i = 0; i < 3; i++) expectError(await read(undefined, '198.51.100.10'), 403, 'event-password-protected');
    for (const guess of ['letmein', 'hunter2'])
      expectError(await read(guess, '198.51.100.10'), 403, 'event-password-protected', guess);
    const limitedGuess = await read('members only', '198.51.100.10');
    expectLimited(limitedGuess, 60, 'the right password after two wrong ones');
    expect(limitedGuess.body.message).to.include('failed authentications');
    const elsewhere = await read('members only', '198.51.100.11');
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).to.equal(200);
    expect(elsewhere.body.id).to.equal(created.body.id);
    // A right password costs nothing; parallel guesses cannot all pass before the first one fails.
    const guesses = await Promise.all(Array.from({ length: 10 }, (_, i) => read(`guess ${i}`, '198.51.100.11')));
    expect(guesses.map((res) => res.status).sort()).to.deep.equal([403, 403, ...Array(8).fill(429)]);
  });

  it('behind a trusted proxy, limits each forwarded client address, not the proxy', async () => {
    await limited({ writesPerKey: 100, writesPerIp: 100, authFailuresPerIp: 1, walksPerIp: 100, trustedProxies: 1 });
    const client = (address: string) => ({ 'X-Forwarded-For': `forged, ${address}` });
    expectUnauthorized(await send('GET', '/events', WELL_FORMED_UNKNOWN, undefined, client('198.51.100.1')), 'first');
    expectLimited(await send('GET', '/events', WELL_FORMED_UNKNOWN, undefined, client('198.51.100.1')), 60, 'again');
    expectUnauthorized(
      await send('GET', '/events', WELL_FORMED_UNKNOWN, undefined, client('198.51.100.2')),
      'other client',
    );
    expect((await send('GET', '/events', who.author.key, undefined, client('198.51.100.3'))).status).to.equal(200);
  });

  it('limits walks started per address (cursor= lists and exports), not the pages of a walk under way', async () => {
    for (const name of ['first', 'second'])
      await create('/venues', { venue: unique(`Walked ${name}`), status: 'publish' });
    await settle();
    await limited({ writesPerKey: 100, writesPerIp: 100, authFailuresPerIp: 100, walksPerIp: 2, trustedProxies: 1 });
    const client = (address: string) => ({ 'X-Forwarded-For': address });
    const walk = (address: string, cursor = '') =>
      send('GET', `/venues?per_page=1&cursor=${encodeURIComponent(cursor)}`, undefined, undefined, client(address));
    const first = await walk('198.51.100.20');
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.next_cursor).to.be.a('string');
    const exported = await fetch(`${server!.url}${ROOT}/venues/export`, {
      headers: { Authorization: `Bearer ${who.author.key}`, ...client('198.51.100.20') },
    });
    expect(exported.status).to.equal(200);
    expect((await exported.text()).split('\n').filter(Boolean).length).to.be.at.least(2);
    const third = await walk('198.51.100.20');
    expectLimited(third, 60, 'a third walk');
    expect(third.body.message).to.include('walks started from this address');
    expectLimited(
      await send('GET', '/events/export', who.author.key, undefined, client('198.51.100.20')),
      60,
      'an export past the limit',
    );
    // The walk under way goes on; numbered pages, other addresses and single reads are not walks.
    const next = await walk('198.51.100.20', first.body.next_cursor);
    expect(next.status, JSON.stringify(next.body)).to.equal(200);
    expect(next.body.venues[0].id).to.not.equal(first.body.venues[0].id);
    expect((await send('GET', '/venues?per_page=1', undefined, undefined, client('198.51.100.20'))).status).to.equal(
      200,
    );
    expect((await walk('198.51.100.21')).status).to.equal(200);
  });

  it('documents 429 rest_rate_limited with Retry-After on every operation', async () => {
    const doc = (await request('GET', `${ROOT}/doc`)).body;
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation?.responses) continue;
        expect(operation.responses['429'], `${method} ${path}`).to.exist;
        expect(operation.responses['429'].description).to.include('`rest_rate_limited`');
        expect(operation.responses['429'].headers).to.have.property('Retry-After');
      }
    }
    expect(doc.info.description).to.include('429 `rest_rate_limited`');
  });
});
