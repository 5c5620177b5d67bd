import { expect } from 'chai';
import { request as httpRequest, STATUS_CODES } from 'node:http';
import { connect } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { api, request, ROOT, type ApiResponse } from '../support/api';
import { expectInvalid } from '../support/errors';
import { testWorld } from '../support/harness';
import { searchReady, unique } from '../support/lists';

/** A request exactly as given: headers only, no body and no Content-Length unless set. */
function bare(
  method: string,
  path: string,
  headers: Record<string, string>,
  payload?: string | Buffer,
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${testWorld().baseUrl}${path}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: new Headers(res.headers as Record<string, string>),
          body: text ? JSON.parse(text) : undefined,
        }),
      );
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Sends `raw` bytes as they are and reads the answer until the server closes the connection. */
function rawExchange(raw: string): Promise<string> {
  const { port, hostname } = new URL(testWorld().baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(raw));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('request bodies and the error envelope', () => {
  it('answers a malformed JSON body 400 rest_invalid_json', async () => {
    const res = await request('POST', `${ROOT}/events`, undefined, {
      key: true,
      raw: '{"title": ',
      contentType: 'application/json',
    });
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('rest_invalid_json');
    expect(res.body.data.status).to.equal(400);
    const wrongMethod = await request('POST', ROOT, undefined, {
      key: true,
      raw: '{',
      contentType: 'application/json',
    });
    expect(wrongMethod.status, 'a body sent to a read-only route').to.equal(405);
  });

  it('answers valid JSON that is not an object 400 naming body, as an array', async () => {
    for (const raw of ['null', '"a title"', '123', 'true', '[]']) {
      const res = await request('POST', `${ROOT}/events`, undefined, {
        key: true,
        raw,
        contentType: 'application/json',
      });
      expectInvalid(res, 'body');
      expect(res.body.data.params.body, raw).to.equal('The request body must be a JSON object.');
    }
  });

  it('answers a body over 1 MiB 413 rest_payload_too_large', async () => {
    const huge = JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) });
    const res = await request('POST', `${ROOT}/events`, undefined, {
      key: true,
      raw: huge,
      contentType: 'application/json',
    });
    expect(res.status).to.equal(413);
    expect(res.body).to.deep.include({ code: 'rest_payload_too_large' });
    expect(res.body.data).to.deep.equal({ status: 413 });
  });

  it('answers an unsupported body type 415 rest_unsupported_media_type', async () => {
    const res = await request('POST', `${ROOT}/events`, undefined, {
      key: true,
      raw: '<event/>',
      contentType: 'application/xml',
    });
    expect(res.status).to.equal(415);
    expect(res.body.code).to.equal('rest_unsupported_media_type');
  });

  it('answers a body without a Content-Type 415, creating nothing', async () => {
    const name = unique('untyped');
    const payload = JSON.stringify({ name });
    const auth = { Authorization: `Bearer ${testWorld().adminKey}`, 'Content-Length': String(payload.length) };
    const res = await bare('POST', `${ROOT}/tags`, auth, payload);
    expect(res.status, JSON.stringify(res.body)).to.equal(415);
    expect(res.body.code).to.equal('rest_unsupported_media_type');
    expect(res.body.message).to.match(/Content-Type/);
    expect(await testWorld().services.stores.tags.docs.countDocuments({ name })).to.equal(0);
  });

  it('answers a body its Content-Encoding cannot decode 400 naming body, creating nothing', async () => {
    const name = unique('encoded');
    const json = (tag: string) => Buffer.from(JSON.stringify({ name: tag }));
    const send = (encoding: string, payload: Buffer) =>
      bare(
        'POST',
        `${ROOT}/tags`,
        {
          Authorization: `Bearer ${testWorld().adminKey}`,
          'Content-Type': 'application/json',
          'Content-Encoding': encoding,
          'Content-Length': String(payload.length),
        },
        payload,
      );
    const corrupt: [string, Buffer][] = [
      ['gzip', Buffer.from('not gzip at all')],
      ['gzip', gzipSync(json(name)).subarray(0, 12)],
      ['deflate', Buffer.from('not deflate either')],
      ['br', Buffer.from('not brotli')],
    ];
    for (const [encoding, payload] of corrupt) {
      const res = await send(encoding, Buffer.from(payload));
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.deep.include({ code: 'rest_invalid_param' });
      expect(res.body.data.params).to.deep.equal({
        body: `The request body could not be decoded as Content-Encoding ${encoding}.`,
      });
    }
    expect(await testWorld().services.stores.tags.docs.countDocuments({ name })).to.equal(0);
    for (const [encoding, compress] of [
      ['gzip', gzipSync],
      ['br', brotliCompressSync],
    ] as const) {
      const res = await send(encoding, compress(json(`${name} ${encoding}`)));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.name).to.equal(`${name} ${encoding}`);
    }
  });

  it('takes a Content-Type without a body as no body (clients that set it on every request)', async () => {
    const created = await api.post('/events', {
      title: 'Deleted bare',
      start_date: '2030-01-01 10:00:00',
      end_date: '2030-01-01 11:00:00',
    });
    const auth = { Authorization: `Bearer ${testWorld().adminKey}`, 'Content-Type': 'application/json' };
    const res = await bare('DELETE', `${ROOT}/events/${created.body.id}`, auth);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect((await api.get(`/events/${created.body.id}`, { key: true })).body.status).to.equal('trash');
  });

  it('reads form lists up to 100 items and 1,000 parameters; past them 400 naming body or query, creating nothing', async () => {
    const auth = { Authorization: `Bearer ${testWorld().adminKey}` };
    const post = (form: string, query = '') =>
      bare(
        'POST',
        `${ROOT}/events${query}`,
        {
          ...auth,
          'Content-Type': 'application/x-www-form-urlencoded',
          'Content-Length': String(Buffer.byteLength(form)),
        },
        form,
      );
    const title = unique('Many tags');
    const event = `title=${encodeURIComponent(title)}&start_date=2030-03-01&end_date=2030-03-01`;
    const tags = (count: number) =>
      Array.from({ length: count }, (_, i) => `&tags[]=${encodeURIComponent(`${title} ${i}`)}`).join('');
    const made = await post(`${event}${tags(25)}`);
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body.tags).to.have.length(25);

    const tooMany = await post(`${event}${tags(101)}`.replace(title, `${title} refused`));
    expectInvalid(tooMany, 'body');
    expect(tooMany.body.data.params.body).to.equal('Array limit exceeded. Only 100 elements allowed in an array.');
    const padding = Array.from({ length: 1001 }, (_, i) => `&p${i}=1`).join('');
    const tooLong = await post(`${event.replace(title, `${title} padded`)}${padding}`);
    expectInvalid(tooLong, 'body');
    expect(tooLong.body.data.params.body).to.equal('Parameter limit exceeded. Only 1000 parameters allowed.');
    const inQuery = await post(`${event.replace(title, `${title} queried`)}`, `?${padding.slice(1)}`);
    expectInvalid(inQuery, 'query');
    const { events } = testWorld().services.stores;
    for (const refused of ['refused', 'padded', 'queried'])
      expect(await events.docs.countDocuments({ title: `${title} ${refused}` }), refused).to.equal(0);
  });

  it('refuses text that is no UTF-8 (400), whatever charset a body declares, storing nothing garbled', async () => {
    const auth = { Authorization: `Bearer ${testWorld().adminKey}` };
    const name = unique('Caf');
    const send = (contentType: string, payload: Buffer) =>
      bare(
        'POST',
        `${ROOT}/tags`,
        { ...auth, 'Content-Type': contentType, 'Content-Length': String(payload.length) },
        payload,
      );
    const latin1 = Buffer.concat([Buffer.from(`{"name":"${name} `), Buffer.from([0xe9]), Buffer.from('"}')]);
    for (const type of ['application/json', 'application/json; charset=iso-8859-1']) {
      const refused = await send(type, latin1);
      expectInvalid(refused, 'body');
      expect(refused.body.data.params.body).to.match(/^The request body is not valid UTF-8/);
    }
    const form = await send(
      'application/x-www-form-urlencoded',
      Buffer.from(`name=${encodeURIComponent(name)}%20Caf%E9`),
    );
    expectInvalid(form, 'body');
    expect(form.body.data.params.body).to.match(/is not UTF-8 once percent-decoded$/);
    // Half a surrogate pair, written as a JSON escape: MongoDB would store it as U+FFFD.
    for (const escaped of ['\\ud800', '\\udfff x', 'x \\ud83d']) {
      const lone = await send('application/json', Buffer.from(`{"name":"${name} ${escaped}"}`));
      expectInvalid(lone, 'body');
      expect(lone.body.data.params.body).to.match(/half a UTF-16 surrogate pair\)\.$/);
    }
    expect(await testWorld().services.stores.tags.docs.countDocuments({ name: new RegExp(`^${name}`) })).to.equal(0);

    // A stray percent sign is one; escapes around it still decode.
    const percent = await send(
      'application/x-www-form-urlencoded',
      Buffer.from(`name=${encodeURIComponent(name)}%20100% off%21`),
    );
    expect(percent.status, JSON.stringify(percent.body)).to.equal(201);
    expect(percent.body.name).to.equal(`${name} 100% off!`);
    const utf8 = await send('application/json; charset=UTF-8', Buffer.from(JSON.stringify({ name: `${name} Café` })));
    expect(utf8.status, JSON.stringify(utf8.body)).to.equal(201);
    // A whole pair, escaped or not, is a character like any other.
    const pair = await send('application/json', Buffer.from(`{"name":"${name} \\ud83c\\udfb7 🎷"}`));
    expect([pair.status, pair.body.name]).to.deep.equal([201, `${name} 🎷 🎷`]);
    // An older client's declared charset does not matter while the bytes are ASCII.
    const ascii = await send(
      'application/x-www-form-urlencoded; charset=ISO-8859-1',
      Buffer.from(`name=${name}%20ascii`),
    );
    expect(ascii.status, JSON.stringify(ascii.body)).to.equal(201);
    expectInvalid(await request('GET', `${ROOT}/events?search=Caf%E9`), 'query');
  });

  it('reads repeated name[] fields of multipart forms as lists, and refuses file parts 415', async () => {
    const tag = (await api.post('/tags', { name: 'Multipart tag' })).body;
    const form = new FormData();
    form.append('title', 'Multipart event');
    form.append('start_date', '2030-02-01 10:00:00');
    form.append('end_date', '2030-02-01 11:00:00');
    form.append('tags[]', String(tag.id));
    form.append('tags[]', 'multipart-new-tag');
    const auth = { Authorization: `Bearer ${testWorld().adminKey}` };
    const made = await fetch(`${testWorld().baseUrl}${ROOT}/events`, { method: 'POST', headers: auth, body: form });
    const event = (await made.json()) as { tags: { slug: string }[] };
    expect(made.status, JSON.stringify(event)).to.equal(201);
    expect(event.tags.map((t) => t.slug)).to.deep.equal([tag.slug, 'multipart-new-tag']);

    const withFile = new FormData();
    withFile.append('title', 'With a file');
    withFile.append('image', new Blob(['tiny']), 'tiny.txt');
    const refused = await fetch(`${testWorld().baseUrl}${ROOT}/events`, {
      method: 'POST',
      headers: auth,
      body: withFile,
    });
    expect(refused.status).to.equal(415);
    expect(await refused.json()).to.deep.include({ code: 'rest_unsupported_media_type' });
    expect(await testWorld().services.stores.events.docs.countDocuments({ title: 'With a file' })).to.equal(0);

    // A compressed multipart body is not read (formidable reads the bytes as sent): 415, saying so.
    const multipart = Buffer.from(
      '--zz\r\nContent-Disposition: form-data; name="title"\r\n\r\nZipped form\r\n--zz--\r\n',
    );
    const zipped = await bare(
      'POST',
      `${ROOT}/events`,
      { ...auth, 'Content-Type': 'multipart/form-data; boundary=zz', 'Content-Encoding': 'gzip' },
      gzipSync(multipart),
    );
    expect(zipped.status).to.equal(415);
    expect(zipped.body.message).to.match(/^A multipart body is read uncompressed only/);
    expect(await testWorld().services.stores.events.docs.countDocuments({ title: 'Zipped form' })).to.equal(0);
  });

  it('answers a malformed or unknown key 401 with WWW-Authenticate, even on reads', async () => {
    for (const header of ['Bearer nope', 'Bearer cal_' + 'A'.repeat(43), 'Basic dXNlcjpwYXNz']) {
      const res = await request('GET', ROOT, undefined, { headers: { Authorization: header } });
      expect(res.status, header).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
      expect(res.body.code).to.equal('rest_unauthorized');
    }
  });

  it('answers a request with several Authorization headers 401, whichever comes first', async () => {
    const { port, hostname } = new URL(testWorld().baseUrl);
    const good = `Authorization: Bearer ${testWorld().adminKey}`;
    for (const headers of [
      [good, 'Authorization: Bearer nope'],
      ['Authorization: Bearer nope', good],
      [good, good],
    ]) {
      const answer = await rawExchange(
        `GET ${ROOT}/events?status=draft HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${headers.join('\r\n')}\r\nConnection: close\r\n\r\n`,
      );
      const [head, body] = answer.split('\r\n\r\n') as [string, string];
      expect(head.split('\r\n')[0]).to.equal('HTTP/1.1 401 Unauthorized');
      expect(JSON.parse(body)).to.deep.include({
        code: 'rest_unauthorized',
        message: 'Send one Authorization header: this request has several.',
      });
    }
  });

  it('answers an anonymous write 401 whatever its body: authentication comes before parsing', async () => {
    const name = unique('anonymous body');
    const bodies = [
      { raw: '{"name": ', contentType: 'application/json' },
      { raw: `<tag>${name}</tag>`, contentType: 'application/xml' },
      { raw: JSON.stringify({ name, filler: 'x'.repeat(1024 * 1024) }), contentType: 'application/json' },
      { raw: JSON.stringify({ name, i18n_language: 'xx' }), contentType: 'application/json' },
    ];
    for (const body of bodies) {
      const res = await request('POST', `${ROOT}/tags`, undefined, body);
      expect(res.status, body.contentType).to.equal(401);
      expect(res.body.code).to.equal('rest_unauthorized');
      expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
    }
    const bare401 = await bare('PATCH', `${ROOT}/tags/1`, { 'Content-Length': '2' }, '{}');
    expect(bare401.status).to.equal(401);
    expect(await testWorld().services.stores.tags.docs.countDocuments({ name })).to.equal(0);
  });

  it('matches paths case-sensitively: another spelling is 404 rest_no_route', async () => {
    const created = await api.post('/events', {
      title: 'Cased',
      start_date: '2030-03-01 10:00:00',
      end_date: '2030-03-01 11:00:00',
    });
    expect((await api.get(`/events/${created.body.id}`)).status).to.equal(200);
    for (const path of [
      `/EVENTS/${created.body.id}`,
      `/Events/by-slug/${created.body.slug}`,
      `/events/BY-SLUG/${created.body.slug}`,
    ]) {
      const res = await api.get(path);
      expect(res.status, path).to.equal(404);
      expect(res.body.code, path).to.equal('rest_no_route');
    }
  });

  it('answers what the HTTP parser refuses in the error envelope: 501 for an undefined method or CONNECT, 431 for huge headers, 400 without Host', async () => {
    const cases: [string, number, string][] = [
      [`FOO ${ROOT}/events HTTP/1.1\r\nHost: localhost\r\n\r\n`, 501, 'rest_method_not_implemented'],
      [
        `GET ${ROOT}/events HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`,
        431,
        'rest_headers_too_large',
      ],
      // No proxy here; and HTTP/1.1 needs a Host.
      ['CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n', 501, 'rest_method_not_implemented'],
      [`GET ${ROOT}/events HTTP/1.1\r\nConnection: close\r\n\r\n`, 400, 'rest_bad_request'],
    ];
    for (const [raw, status, code] of cases) {
      const answer = await rawExchange(raw);
      const [head, body] = answer.split('\r\n\r\n') as [string, string];
      expect(head.split('\r\n')[0], code).to.equal(`HTTP/1.1 ${status} ${STATUS_CODES[status]}`);
      expect(head).to.match(/\r\nContent-Language: en\r\n/);
      expect(JSON.parse(body)).to.deep.include({ code, data: { status } });
    }
  });

  it('answers a request pipelined before a malformed one first, then the parser error', async () => {
    const name = unique('pipelined');
    const payload = JSON.stringify({ name });
    const answer = await rawExchange(
      `POST ${ROOT}/tags HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${testWorld().adminKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\n\r\n${payload}` +
        'NOT HTTP AT ALL\r\n\r\n',
    );
    const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]);
    expect(statuses, answer).to.deep.equal(['201', '501']);
    expect(answer).to.include(`"name":${JSON.stringify(name)}`);
    expect(answer).to.match(/\{"code":"rest_method_not_implemented",.*"data":\{"status":501\}\}$/);
    expect(await testWorld().services.stores.tags.docs.countDocuments({ name })).to.equal(1);
  });

  it('builds links from the configured public address, never from the Host header', async () => {
    const { apiUrl } = testWorld().config;
    const headers = { Host: 'evil.example' };
    await searchReady();
    const tags = await bare('GET', `/fr${ROOT}/tags?per_page=1&hide_empty=false`, headers);
    expect(tags.status).to.equal(200);
    expect(tags.body.rest_url).to.equal(`${apiUrl}/fr${ROOT}/tags?per_page=1&hide_empty=false`);
    const index = await bare('GET', ROOT, headers);
    expect(JSON.stringify(index.body)).not.to.include('evil.example');
    expect((await bare('GET', `${ROOT}/doc`, headers)).body.servers[0].url).to.equal(`${apiUrl}${ROOT}`);
  });

  it('sets Content-Language on errors too', async () => {
    const res = await request('GET', `/de${ROOT}/no-such-thing`);
    expect(res.status).to.equal(404);
    expect(res.headers.get('content-language')).to.equal('de');
  });
});
