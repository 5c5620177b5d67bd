import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { crossOriginAccess, htmlSafeJson } from '../../../src/http/browsers';

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

  it('writes <, >, & and U+2028/9 in JSON bodies as \\u escapes: the same JSON, safe inside <script>', async () => {
    const value = { title: '</script><script>alert(1)</script> & more\u2028\u2029', list: ['<b>'] };
    const url = await started([htmlSafeJson() as Koa.Middleware], (ctx) => {
      ctx.body = value;
    });
    const res = await fetch(url);
    const text = await res.text();
    expect(text).to.not.match(/[<>&\u2028\u2029]/);
    expect(text).to.include('\\u003c/script\\u003e');
    expect(JSON.parse(text)).to.deep.equal(value);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
  });

  it("keeps a handler's own JSON media type", async () => {
    const url = await started([htmlSafeJson() as Koa.Middleware], (ctx) => {
      ctx.type = 'application/problem+json';
      ctx.body = { title: '<b>' };
    });
    const res = await fetch(url);
    expect(res.headers.get('content-type')).to.equal('application/problem+json');
    expect(await res.text()).to.equal('{"title":"\\u003cb\\u003e"}');
  });

  it('leaves text, buffers and empty bodies as they are', async () => {
    const url = await started([htmlSafeJson() as Koa.Middleware], (ctx) => {
      if (ctx.path === '/text') ctx.body = '<p>a & b</p>';
      else if (ctx.path === '/buffer') ctx.body = Buffer.from('<svg/>');
      else ctx.status = 204;
    });
    expect(await (await fetch(`${url}/text`)).text()).to.equal('<p>a & b</p>');
    expect(await (await fetch(`${url}/buffer`)).text()).to.equal('<svg/>');
    const empty = await fetch(`${url}/none`);
    expect([empty.status, await empty.text()]).to.deep.equal([204, '']);
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
