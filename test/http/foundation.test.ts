import { expect } from 'chai';
import { api, request, ROOT } from '../support/api';
import { testWorld } from '../support/harness';

describe('foundation', () => {
  it('talks to real Elasticsearch 8.12.2 and a MongoDB-protocol server', async () => {
    const { services } = testWorld();
    const info = await services.search.info();
    expect(info.version.number).to.equal('8.12.2');
    const ping = await services.db.command({ ping: 1 });
    expect(ping.ok).to.equal(1);
  });

  it('GET /healthz answers ok and /readyz reports both services up by name', async () => {
    const health = await request('GET', '/healthz');
    expect(health.status).to.equal(200);
    expect(health.body).to.deep.equal({ status: 'ok' });
    const ready = await request('GET', '/readyz');
    expect(ready.status).to.equal(200);
    expect(ready.body.services).to.deep.equal({ mongo: 'up', elasticsearch: 'up' });
    expect(ready.body.sync).to.have.keys('pending', 'oldestPendingMs');
  });

  it('gives every response an X-Request-Id, keeping a sane incoming one', async () => {
    const fresh = await request('GET', '/healthz');
    expect(fresh.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    const kept = await request('GET', '/healthz', undefined, { headers: { 'X-Request-Id': 'trace-123' } });
    expect(kept.headers.get('x-request-id')).to.equal('trace-123');
  });

  it('serves the namespace index under every root with Content-Language', async () => {
    for (const [prefix, lang] of [
      ['', 'en'],
      ['/fr', 'fr'],
      ['/de', 'de'],
      ['/en', 'en'],
    ]) {
      const res = await request('GET', `${prefix}${ROOT}`);
      expect(res.status, prefix).to.equal(200);
      expect(res.headers.get('content-language')).to.equal(lang);
      expect(res.body.namespace).to.equal('calendar/events/v1');
      expect(res.body.routes).to.be.an('object');
    }
  });

  it('answers unknown paths 404 rest_no_route in the error envelope', async () => {
    for (const path of ['/nope', '/es/calendar/events/v1', `${ROOT}/nothing-here`]) {
      const res = await request('GET', path);
      expect(res.status, path).to.equal(404);
      expect(res.body).to.deep.equal({
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    }
  });

  it('answers a wrong method on a known path 405 with Allow', async () => {
    const res = await request('DELETE', ROOT, undefined, { key: true });
    expect(res.status).to.equal(405);
    expect(res.body.code).to.equal('rest_method_not_allowed');
    expect(res.headers.get('allow')).to.include('GET');
    expect(res.body.message).to.equal(`DELETE is not allowed here; this route takes ${res.headers.get('allow')}.`);
  });

  it('a path beside /{kind}/{id} that is not an ID is its own: 405 with its Allow, or 404 when no route has it', async () => {
    for (const path of ['/events/export', '/venues/export', '/events.ics']) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await request(method, `${ROOT}${path}`, {}, { key: true });
        expect(res.status, `${method} ${path}`).to.equal(405);
        expect(res.headers.get('allow'), `${method} ${path}`).to.equal('GET, HEAD, OPTIONS');
      }
      const options = await request('OPTIONS', `${ROOT}${path}`);
      expect([options.status, options.headers.get('allow')], path).to.deep.equal([204, 'GET, HEAD, OPTIONS']);
      expect((await request('GET', `${ROOT}${path}`, undefined, { key: true })).status, path).to.equal(200);
    }
    for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS']) {
      const res = await request(method, `${ROOT}/events/abc`, method === 'POST' ? {} : undefined, { key: true });
      expect([res.status, res.body?.code], `${method} /events/abc`).to.deep.equal([404, 'rest_no_route']);
    }
    const event = await request('OPTIONS', `${ROOT}/events/1`);
    expect(event.headers.get('allow')).to.equal('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
  });

  it('rejects an unknown namespace and an unknown language', async () => {
    const ns = await api.get('?namespace=other/v2');
    expect(ns.status).to.equal(404);
    expect(ns.body.code).to.equal('rest_invalid_namespace');
    const lang = await api.get('?i18n_language=es');
    expect(lang.status).to.equal(400);
    expect(lang.body.code).to.equal('rest_invalid_param');
    expect(lang.body.data.params).to.have.key('i18n_language');
  });
});
