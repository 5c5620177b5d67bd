import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { api, type RequestOptions } from '../support/api';
import { conforming } from '../support/conformance';
import { testWorld } from '../support/harness';
import { until } from '../reliability/support/http';
import { WebhookReceiver } from '../support/webhookReceiver';
import { expectError } from '../support/errors';

const PARTNER = 'https://partner.example/hooks/calendar';

/** A host name other than localhost that /etc/hosts maps to a loopback address. */
function loopbackName(): string {
  for (const line of readFileSync('/etc/hosts', 'utf8').split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    const name = names.find((n) => n !== 'localhost' && !n.startsWith('localhost.') && !n.includes('::'));
    if (address?.startsWith('127.') && name) return name;
  }
  throw new Error('/etc/hosts names no host but localhost on 127.0.0.0/8: add one (e.g. "127.0.0.1 vm")');
}

describe('webhook subscriptions: routes, access and validation', () => {
  const keys: Record<string, string> = {};
  const as = (role: string): RequestOptions => ({ key: keys[role]! });

  before(async () => {
    const { services } = testWorld();
    for (const role of ['editor', 'author', 'contributor'] as const)
      keys[role] = (await services.apiKeys.create(`subscriptions ${role}`, role)).key;
  });

  it('creates (secret shown once), reads, lists, changes and deletes, as the document says', async () => {
    const created = await conforming.post('/subscriptions', {
      url: PARTNER,
      filters: { search: 'jazz', categories: [] },
    });
    // An empty list filters nothing, as in a list: it is not kept.
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body).to.include({ url: PARTNER, status: 'active', language: 'en' });
    expect(created.body.filters).to.deep.equal({ search: 'jazz' });
    expect(created.headers.get('location')).to.equal(created.body.rest_url);
    const id = created.body.id as number;

    const read = await conforming.get(`/subscriptions/${id}`, { key: true });
    expect(read.status).to.equal(200);
    expect(read.body).to.not.have.property('secret');
    const list = await conforming.get('/subscriptions', { key: true });
    expect(list.body.subscriptions.map((s: { id: number }) => s.id)).to.include(id);

    const patched = await conforming.patch(`/subscriptions/${id}`, {
      filters: 'search=rock&geoloc_lat=45.7&geoloc_lng=4.8',
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body.filters).to.deep.equal({ search: 'rock', geoloc_lat: 45.7, geoloc_lng: 4.8 });
    const disabled = await conforming.patch(`/subscriptions/${id}`, { status: 'disabled' });
    expect(disabled.body).to.include({ status: 'disabled', disabled_reason: 'disabled by request' });

    const log = await conforming.get(`/subscriptions/${id}/deliveries`, { key: true });
    expect(log.body).to.deep.equal({ deliveries: [], total: 0, total_pages: 0 });
    const deleted = await conforming.delete(`/subscriptions/${id}`);
    expect(deleted.body).to.deep.equal({ id, deleted: true });
    expect((await conforming.get(`/subscriptions/${id}`, { key: true })).status).to.equal(404);
    const huge = await conforming.get('/subscriptions/99999999999999999999999', { key: true });
    expect([huge.status, huge.body.message]).to.deep.equal([
      404,
      'The subscription 99999999999999999999999 was not found.',
    ]);
  });

  it('keeps a sent secret, and stores it sealed: the database holds neither the secret nor its key bytes', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const created = await api.post('/subscriptions', { url: PARTNER, secret });
    expect(created.status).to.equal(201);
    expect(created.body.secret).to.equal(secret);
    const stored = await testWorld().services.webhooks.subscriptions.docs.findOne({ _id: created.body.id });
    const text = JSON.stringify(stored);
    expect(text).to.not.include(secret.slice(6));
    expect(text).to.not.include(Buffer.alloc(32, 7).toString('hex'));
    expect(stored!.secret).to.have.keys('keyId', 'iv', 'tag', 'data');
    expect(testWorld().services.webhooks.box!.open(stored!.secret)).to.equal(secret);
  });

  it('administrators and editors only: other roles 403, anonymous 401, on every route', async () => {
    const id = (await api.post('/subscriptions', { url: PARTNER })).body.id as number;
    expect((await api.post('/subscriptions', { url: PARTNER }, as('editor'))).status).to.equal(201);
    expect((await api.get(`/subscriptions/${id}/deliveries`, as('editor'))).status).to.equal(200);
    const routes: [string, string, unknown?][] = [
      ['POST', '/subscriptions', { url: PARTNER }],
      ['GET', '/subscriptions'],
      ['GET', `/subscriptions/${id}`],
      ['PATCH', `/subscriptions/${id}`, { url: PARTNER }],
      ['DELETE', `/subscriptions/${id}`],
      ['GET', `/subscriptions/${id}/deliveries`],
    ];
    const send = (method: string, path: string, body: unknown, options: RequestOptions) =>
      method === 'GET'
        ? api.get(path, options)
        : method === 'DELETE'
          ? api.delete(path, options)
          : method === 'PATCH'
            ? api.patch(path, body, options)
            : api.post(path, body, options);
    for (const [method, path, body] of routes) {
      for (const role of ['author', 'contributor']) {
        const res = await send(method, path, body, as(role));
        expect(res.status, `${role} ${method} ${path}`).to.equal(403);
      }
      const anonymous = await send(method, path, body, {});
      expect(anonymous.status, `anonymous ${method} ${path}`).to.equal(401);
    }
    expect((await api.get(`/subscriptions/${id}`)).status).to.equal(401);
  });

  it('pages oldest first (20 by default), refuses per_page over 100 and page over 100000; past the last page, 404', async () => {
    for (let i = 0; i < 3; i++) await api.post('/subscriptions', { url: `${PARTNER}/paging-${i}` });
    const all = await api.get('/subscriptions?per_page=100', { key: true });
    const total = all.body.total as number;
    expect(all.body.subscriptions).to.have.length(Math.min(total, 100));
    const ids = all.body.subscriptions.map((s: { id: number }) => s.id);
    expect(ids).to.deep.equal([...ids].sort((a: number, b: number) => a - b));

    const second = await api.get('/subscriptions?per_page=2&page=2', { key: true });
    expect(second.body.subscriptions.map((s: { id: number }) => s.id)).to.deep.equal(ids.slice(2, 4));
    expect(second.body).to.include({ total, total_pages: Math.ceil(total / 2) });
    const byDefault = await api.get('/subscriptions', { key: true });
    expect(byDefault.body.subscriptions).to.have.length(Math.min(total, 20));
    const past = await api.get(`/subscriptions?per_page=2&page=${total + 1}`, { key: true });
    expectError(past, 404, 'subscription-archive-page-not-found');

    for (const [query, param] of [
      ['per_page=101', 'per_page'],
      ['page=100001', 'page'],
      ['page=0', 'page'],
    ]) {
      const refused = await api.get(`/subscriptions?${query}`, { key: true });
      expect(refused.status, query).to.equal(400);
      expect(refused.body.data.params).to.have.property(param!);
    }
  });

  it('walks the subscriptions and a delivery log with cursor: each once, in order; a changed or foreign cursor is 400', async () => {
    for (let i = 0; i < 3; i++) await api.post('/subscriptions', { url: `${PARTNER}/walk-${i}` });
    const all = (await api.get('/subscriptions?per_page=100', { key: true })).body.subscriptions.map(
      (s: { id: number }) => s.id,
    );
    const walked: number[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const res = await api.get(`/subscriptions?per_page=2&cursor=${encodeURIComponent(cursor)}`, { key: true });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      pages++;
      walked.push(...res.body.subscriptions.map((s: { id: number }) => s.id));
      expect(res.body.total).to.equal(all.length);
      if (res.body.next_cursor === null) break;
      expect(res.headers.get('link')).to.equal(`<${res.body.next_rest_url}>; rel="next"`);
      expect(res.body.next_rest_url).to.include(`cursor=${encodeURIComponent(res.body.next_cursor)}`);
      cursor = res.body.next_cursor;
      // One created during the walk sorts last: the walk reaches it.
      if (pages === 1) all.push((await api.post('/subscriptions', { url: `${PARTNER}/walk-late` })).body.id);
    }
    expect(walked).to.deep.equal(all);
    expect(pages).to.equal(Math.ceil(all.length / 2));
    const first = await api.get('/subscriptions?per_page=1&cursor=', { key: true });
    const next = first.body.next_cursor as string;
    const [body, mac] = next.split('.');
    const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), a: [0] })).toString('base64url')}.${mac}`;
    for (const [url, param] of [
      [`/subscriptions?cursor=${forged}`, 'cursor'],
      [`/subscriptions?cursor=garbage`, 'cursor'],
      [`/subscriptions/${all[0]}/deliveries?cursor=${next}`, 'cursor'],
      [`/subscriptions?page=2&cursor=${next}`, 'page'],
    ]) {
      const refused = await api.get(url!, { key: true });
      expectError(refused, 400, 'rest_invalid_param');
      expect(refused.body.data.params, url).to.have.property(param!);
    }
    const log = await api.get(`/subscriptions/${all[0]}/deliveries?cursor=`, { key: true });
    expect(log.body).to.deep.equal({ deliveries: [], total: 0, next_cursor: null });
  });

  it('refuses bad filters as the event list would, naming each as filters.<name>, and changes nothing', async () => {
    const { services } = testWorld();
    const before = await services.webhooks.subscriptions.docs.countDocuments();
    const cases: [unknown, string[]][] = [
      [{ categories: ['no-such-category'] }, ['filters.categories']],
      [{ geoloc_lat: 91 }, ['filters.geoloc_lat']],
      [{ geoloc_lat: 45 }, ['filters.geoloc_lng']],
      [{ start_date: 'the day after' }, ['filters.start_date']],
      [{ status: ['draft'] }, ['filters.status']],
      [{ categorie: 'jazz' }, ['filters.categorie']],
      [{ per_page: 5, orderby: 'title' }, ['filters.per_page', 'filters.orderby']],
      [
        { hide_subsequent_recurrences: true, facets: 'venue', histogram: 'day', cursor: '' },
        ['filters.hide_subsequent_recurrences', 'filters.facets', 'filters.histogram', 'filters.cursor'],
      ],
      ['search=jazz&venue=x', ['filters.venue']],
      [{ include: [2147483648] }, ['filters.include']],
    ];
    for (const [filters, names] of cases) {
      const res = await conforming.post('/subscriptions', { url: PARTNER, filters });
      expect(res.status, JSON.stringify(filters)).to.equal(400);
      expect(Object.keys(res.body.data.params), JSON.stringify(res.body)).to.have.members(names);
    }
    expect(await services.webhooks.subscriptions.docs.countDocuments()).to.equal(before);
  });

  it('refuses URLs that are not http(s), carry credentials, or name private, loopback or link-local addresses', async () => {
    const refused = [
      'ftp://partner.example/x',
      'javascript:alert(1)',
      'https://user:pass@partner.example/x',
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://localhost.:8080/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:a9fe:a9fe]/latest/meta-data',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.8/hook',
      'http://192.168.1.1/hook',
      'http://[fd00::1]/hook',
      'http://[fe80::1]/hook',
      'http://0.0.0.0/hook',
    ];
    for (const url of refused) {
      const res = await api.post('/subscriptions', { url });
      expect(res.status, url).to.equal(400);
      expect(res.body.data.params, url).to.have.property('url');
    }
    const secret = await api.post('/subscriptions', { url: PARTNER, secret: 'whsec_c2hvcnQ=' });
    expect(secret.body.data.params).to.have.property('secret');
  });

  it('with WEBHOOK_ALLOW_PRIVATE=false, a host name that resolves to loopback is refused at create, and at delivery after DNS', async () => {
    // A name of this machine's own that resolves to 127.0.0.1 (/etc/hosts).
    const loopbackAlias = loopbackName();
    const receiver = await new WebhookReceiver().start();
    try {
      const url = `http://${loopbackAlias}:${receiver.port}/hook`;
      const before = await testWorld().services.webhooks.subscriptions.docs.countDocuments();
      const refused = await api.post('/subscriptions', { url, filters: { search: 'rebinding' } });
      expectError(refused, 400, 'rest_invalid_param');
      expect(refused.body.data.params.url).to.match(/resolves only to private, loopback or link-local addresses/);
      expect(await testWorld().services.webhooks.subscriptions.docs.countDocuments()).to.equal(before);
      // A name can resolve elsewhere at delivery than at create (DNS rebinding): the stored URL is
      // changed behind the API's back to stand for that, and only the check after DNS refuses it.
      const created = await api.post('/subscriptions', { url: PARTNER, filters: { search: 'rebinding' } });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      await testWorld().services.webhooks.subscriptions.docs.updateOne({ _id: created.body.id }, { $set: { url } });
      const event = await api.post('/events', {
        title: 'DNS rebinding probe',
        status: 'publish',
        start_date: '2031-01-01 10:00:00',
        end_date: '2031-01-01 11:00:00',
      });
      expect(event.status).to.equal(201);
      const path = `/subscriptions/${created.body.id}/deliveries`;
      await until(
        async () => (await api.get(path, { key: true })).body.deliveries[0]?.attempts > 0,
        20_000,
        'a delivery attempt',
      );
      const [delivery] = (await conforming.get(path, { key: true })).body.deliveries;
      expect(delivery).to.include({ type: 'match.added', status: 'pending', status_code: null });
      expect(delivery.error).to.include(`${loopbackAlias} resolves only to private, loopback or link-local addresses`);
      expect(delivery.next_retry).to.be.a('string');
      expect(receiver.received).to.have.length(0);
      await api.delete(`/subscriptions/${created.body.id}`);
    } finally {
      await receiver.stop();
    }
  });
});
