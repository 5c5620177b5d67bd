import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { crossOriginAccess, noSniff } from '../../../src/http/browsers';

/** A Koa app with the middleware under test in front of `handler`, listening on 127.0.0.1. */
async function serve(middleware: Koa.Middleware[], handler: Koa.Middleware): Promise<{ url: string; server: Server }> {
  const app = new Koa();
  for (const use of middleware) app.use(use);
  app.use(handler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('http/browsers', () => {
  const servers: Server[] = [];
  after(() => servers.forEach((server) => server.close()));
  const started = async (middleware: Koa.Middleware[], handler: Koa.Middleware) => {
    const { url, server } = await serve(middleware, handler);
    servers.push(server);
    return url;
  };

  it('marks every answer nosniff, leaving its body and type as they are', async () => {
    const url = await started([noSniff() as Koa.Middleware], (ctx) => {
      if (ctx.path === '/text') ctx.body = '<p>a & b</p>';
      else ctx.body = { title: '<b>' };
    });
    const json = await fetch(url);
    expect(json.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(json.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(await json.text()).to.equal('{"title":"<b>"}');
    const text = await fetch(`${url}/text`);
    expect(text.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(await text.text()).to.equal('<p>a & b</p>');
  });

  it('with listed origins, answers CORS for those only', async () => {
    const url = await started([crossOriginAccess(['https://events.example']) as Koa.Middleware], (ctx) => {
      ctx.body = { ok: true };
    });
    const listed = await fetch(url, { headers: { Origin: 'https://events.example' } });
    expect(listed.headers.get('access-control-allow-origin')).to.equal('https://events.example');
    expect(listed.headers.get('vary')).to.equal('Origin');
    const other = await fetch(url, { headers: { Origin: 'https://elsewhere.example' } });
    expect(other.status).to.equal(200);
    expect(other.headers.get('access-control-allow-origin')).to.equal(null);
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).to.equal(null);
  });

  it('with no origins listed, answers no CORS at all', async () => {
    const url = await started([crossOriginAccess([]) as Koa.Middleware], (ctx) => {
      ctx.body = { ok: true };
    });
    const res = await fetch(url, { headers: { Origin: 'https://events.example' } });
    expect(res.headers.get('access-control-allow-origin')).to.equal(null);
  });
});
