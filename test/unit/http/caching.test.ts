import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import Koa from 'koa';
import { httpCaching } from '../../../src/http/caching';
import { compression } from '../../../src/http/compression';
import type { AppState } from '../../../src/http/types';

const BIG = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Event number ${i}` })) };

/** An app with compression and caching as src/app.ts stacks them, and a few answers. */
function app(cacheMaxAgeSeconds: number): Koa<AppState> {
  const koa = new Koa<AppState>();
  koa.silent = true;
  koa.use(compression());
  koa.use(httpCaching({ cacheMaxAgeSeconds }));
  koa.use(async (ctx) => {
    ctx.state.principal = ctx.get('X-Key')
      ? { keyId: 'k', userId: 1, role: 'editor' }
      : { keyId: null, userId: 0, role: null };
    if (ctx.path === '/small') ctx.body = { ok: true };
    else if (ctx.path === '/stream-fails') {
      ctx.type = 'text/plain';
      ctx.body = Readable.from(
        (async function* () {
          yield 'x'.repeat(5000);
          throw new Error('source failed');
        })(),
      );
    } else ctx.body = BIG;
  });
  return koa;
}

describe('unit: HTTP caching and compression middleware', () => {
  const servers: Server[] = [];
  const start = async (maxAge = 0) => {
    const server = app(maxAge).listen(0);
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  after(() => servers.forEach((server) => server.close()));

  it('sends public max-age=N with CACHE_MAX_AGE, no-cache with 0, private no-store for a key', async () => {
    const cached = await start(600);
    expect((await fetch(`${cached}/big`)).headers.get('cache-control')).to.equal('public, max-age=600');
    expect((await fetch(`${cached}/big`, { headers: { 'X-Key': '1' } })).headers.get('cache-control')).to.equal(
      'private, no-store',
    );
    const uncached = await start(0);
    expect((await fetch(`${uncached}/big`)).headers.get('cache-control')).to.equal('public, no-cache');
  });

  it('tags a body the route did not tag and answers 304, even to a request with Cache-Control: no-cache', async () => {
    const base = await start();
    const first = await fetch(`${base}/big`);
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^W\/"/);
    // fetch() adds `Cache-Control: no-cache` to conditional requests; an origin server still validates.
    const again = await fetch(`${base}/big`, { headers: { 'If-None-Match': etag, 'Cache-Control': 'no-cache' } });
    expect(again.status).to.equal(304);
    expect(again.headers.get('content-encoding')).to.equal(null);
    expect(await again.text()).to.equal('');
  });

  it('compresses over 1 KiB as Accept-Encoding prefers, decoding to the same JSON; not smaller answers', async () => {
    const base = await start();
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${base}/big`, { headers: { 'Accept-Encoding': encoding } });
      expect(res.headers.get('content-encoding'), encoding).to.equal(encoding);
      expect(res.headers.get('vary'), encoding).to.match(/Accept-Encoding/);
      expect(await res.json(), encoding).to.deep.equal(BIG);
    }
    const small = await fetch(`${base}/small`, { headers: { 'Accept-Encoding': 'br' } });
    expect(small.headers.get('content-encoding')).to.equal(null);
    const refused = await fetch(`${base}/big`, { headers: { 'Accept-Encoding': 'identity;q=0' } });
    expect(refused.status).to.equal(200);
    expect(await refused.json()).to.deep.equal(BIG);
    const head = await fetch(`${base}/big`, { method: 'HEAD', headers: { 'Accept-Encoding': 'br' } });
    expect(head.status).to.equal(200);
    expect(await head.text()).to.equal('');
  });

  it('cuts a compressed stream whose source fails instead of ending it as if whole', async () => {
    const base = await start();
    const failed = await fetch(`${base}/stream-fails`, { headers: { 'Accept-Encoding': 'gzip' } })
      .then((res) => res.text())
      .then(
        () => false,
        () => true,
      );
    expect(failed).to.equal(true);
  });
});
