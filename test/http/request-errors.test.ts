import { expect } from 'chai';
import { request, ROOT } from '../support/api';

describe('request bodies and the error envelope', () => {
  it('answers a malformed JSON body 400 rest_invalid_json', async () => {
    const res = await request('POST', ROOT, undefined, {
      key: true,
      raw: '{"title": ',
      contentType: 'application/json',
    });
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('rest_invalid_json');
    expect(res.body.data.status).to.equal(400);
  });

  it('answers a body over 1 MiB 413 rest_payload_too_large', async () => {
    const huge = JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) });
    const res = await request('POST', ROOT, undefined, { key: true, raw: huge, contentType: 'application/json' });
    expect(res.status).to.equal(413);
    expect(res.body).to.deep.include({ code: 'rest_payload_too_large' });
    expect(res.body.data).to.deep.equal({ status: 413 });
  });

  it('answers an unsupported body type 415 rest_unsupported_media_type', async () => {
    const res = await request('POST', ROOT, undefined, { key: true, raw: '<event/>', contentType: 'application/xml' });
    expect(res.status).to.equal(415);
    expect(res.body.code).to.equal('rest_unsupported_media_type');
  });

  it('answers a malformed or unknown key 401 with WWW-Authenticate, even on reads', async () => {
    for (const header of ['Bearer nope', 'Bearer cal_' + 'A'.repeat(43), 'Basic dXNlcjpwYXNz']) {
      const res = await request('GET', ROOT, undefined, { headers: { Authorization: header } });
      expect(res.status, header).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
      expect(res.body.code).to.equal('rest_unauthorized');
    }
  });

  it('sets Content-Language on errors too', async () => {
    const res = await request('GET', `/de${ROOT}/no-such-thing`);
    expect(res.status).to.equal(404);
    expect(res.headers.get('content-language')).to.equal('de');
  });
});
