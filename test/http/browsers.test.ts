import { expect } from 'chai';
import { api, request, ROOT } from '../support/api';
import { expectError } from '../support/errors';
import { testWorld } from '../support/harness';
import { searchReady } from '../support/lists';

const ORIGIN = 'https://events.example';

describe('browsers: CORS and nosniff', () => {
  before(searchReady);

  it('answers a preflight without a key: any origin, the methods and headers a page may send', async () => {
    const res = await request('OPTIONS', `${ROOT}/events/1`, undefined, {
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(res.status).to.equal(204);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(res.headers.get('access-control-allow-methods')).to.equal('GET,HEAD,POST,PUT,PATCH,DELETE');
    expect(res.headers.get('access-control-allow-headers')).to.include('Authorization').and.include('Content-Type');
    expect(res.headers.get('access-control-max-age')).to.equal('600');
    expect(res.headers.get('access-control-allow-credentials')).to.equal(null);
  });

  it('lets a page read lists with their paging headers, and errors with their envelope', async () => {
    const list = await api.get('/events?per_page=1', { headers: { Origin: ORIGIN } });
    expect(list.status).to.equal(200);
    expect(list.headers.get('access-control-allow-origin')).to.equal('*');
    const exposed = list.headers.get('access-control-expose-headers')!.split(',');
    expect(exposed).to.include.members(['X-Total', 'X-Total-Pages', 'Link', 'Location', 'Retry-After']);
    const refused = await api.post('/events', { title: 'x' }, { headers: { Origin: ORIGIN } });
    expectError(refused, 401, 'rest_unauthorized');
    expect(refused.headers.get('access-control-allow-origin')).to.equal('*');
  });

  it('answers an OPTIONS that is not a preflight 204 with Allow, and names OPTIONS in every 405', async () => {
    const res = await request('OPTIONS', `${ROOT}/events`);
    expect(res.status).to.equal(204);
    expect(res.headers.get('allow')).to.equal('GET, HEAD, POST, OPTIONS');
    const wrong = await request('DELETE', `${ROOT}/events`, undefined, { key: true });
    expectError(wrong, 405, 'rest_method_not_allowed');
    expect(wrong.headers.get('allow')).to.equal('GET, HEAD, POST, OPTIONS');
    expectError(await request('OPTIONS', `${ROOT}/no-such-route`), 404, 'rest_no_route');
  });

  it('marks JSON answers nosniff, errors included', async () => {
    const res = await fetch(`${testWorld().baseUrl}${ROOT}/events/${Number.MAX_SAFE_INTEGER}`);
    expect(res.status).to.equal(404);
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
  });
});
