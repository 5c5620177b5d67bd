import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import Koa from 'koa';
import { answerEncoding, compression, COMPRESSION_THRESHOLD_BYTES, sendJsonOnce } from '../../../src/http/compression';
import type { AppContext } from '../../../src/http/types';

function contextOf(headers: Record<string, string>, method = 'GET'): AppContext {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.url = '/changes';
  req.headers = headers;
  return new Koa().createContext(req, new ServerResponse(req)) as unknown as AppContext;
}

const page = Buffer.from(JSON.stringify({ changes: Array.from({ length: 200 }, (_, id) => ({ id, type: 'upsert' })) }));

describe('http/compression: one choice of encoding', () => {
  const HEADERS = [
    '',
    'br',
    'gzip',
    'gzip, br',
    'gzip, deflate, br',
    'br;q=0.5, gzip',
    'gzip;q=0.5, br;q=0.5',
    'deflate',
    'identity',
    'identity;q=0',
    'identity;q=0, br',
    'br;q=0.5, identity',
    '*',
    '*;q=0',
    'x-unknown, gzip;q=0.1',
    ' BR , GZIP ',
  ];

  it('ranks by quality, br on a tie, gzip for a bare *, identity without the header, none when nothing is acceptable (`*;q=0` refuses identity too)', () => {
    expect(HEADERS.map(answerEncoding)).to.deep.equal([
      'identity',
      'br',
      'gzip',
      'br',
      'br',
      'gzip',
      'br',
      'identity',
      'identity',
      undefined,
      'br',
      'identity',
      'gzip',
      undefined,
      'gzip',
      'br',
    ]);
  });

  it('the middleware and sendJsonOnce send the same encoding for every header', async () => {
    const value = JSON.parse(page.toString()) as unknown;
    for (const accept of HEADERS) {
      const headers: Record<string, string> = accept ? { 'accept-encoding': accept } : {};
      const viaMiddleware = contextOf(headers);
      await compression()(viaMiddleware, async () => {
        viaMiddleware.body = value;
      });
      const kept = contextOf(headers);
      await sendJsonOnce(kept, [page]);
      const chosen = answerEncoding(accept);
      const expected = chosen === 'identity' || chosen === undefined ? undefined : chosen;
      expect(viaMiddleware.response.get('Content-Encoding') || undefined, accept).to.equal(expected);
      expect(kept.response.get('Content-Encoding') || undefined, accept).to.equal(expected);
    }
  });
});

describe('http/compression: sendJsonOnce', () => {
  it('encodes as the request prefers (br on a tie), decoding to the same bytes', async () => {
    for (const [accept, encoding, decode] of [
      ['br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['gzip, br', 'br', brotliDecompressSync],
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['*', 'gzip', gunzipSync],
      ['br;q=0.5, gzip', 'gzip', gunzipSync],
      ['identity;q=0, br', 'br', brotliDecompressSync],
    ] as const) {
      const ctx = contextOf({ 'accept-encoding': accept });
      await sendJsonOnce(ctx, [page]);
      expect(ctx.response.get('Content-Encoding'), accept).to.equal(encoding);
      expect(ctx.type, accept).to.equal('application/json');
      expect(decode(ctx.body as Buffer).equals(page), accept).to.equal(true);
    }
  });

  it('uses a brotli window of 256 KiB (its stream header says so), not the 4 MiB default', async () => {
    const ctx = contextOf({ 'accept-encoding': 'br' });
    await sendJsonOnce(ctx, [page]);
    const first = (ctx.body as Buffer)[0]!;
    // RFC 7932 9.1: WBITS is 1 then three bits n, the window being 2^(17 + n) bytes.
    expect(first & 1).to.equal(1);
    expect(17 + ((first >> 1) & 7)).to.equal(18);
  });

  it('makes each encoded form of one body once: the same bytes are sent again', async () => {
    const body = [Buffer.from(page)];
    const sent = [];
    for (let i = 0; i < 3; i++) {
      const ctx = contextOf({ 'accept-encoding': 'gzip' });
      await sendJsonOnce(ctx, body);
      sent.push(ctx.body);
    }
    expect(sent[1]).to.equal(sent[0]);
    expect(sent[2]).to.equal(sent[0]);
    const other = contextOf({ 'accept-encoding': 'gzip' });
    await sendJsonOnce(other, [Buffer.from(page)]);
    expect(other.body, 'another body of the same bytes').to.not.equal(sent[0]);
  });

  it('sends the body as it is without Accept-Encoding, for identity, for HEAD and under the threshold', async () => {
    const small = Buffer.from(JSON.stringify({ changes: [] }));
    expect(small.length).to.be.below(COMPRESSION_THRESHOLD_BYTES);
    for (const [headers, method, body] of [
      [{}, 'GET', page],
      [{ 'accept-encoding': 'identity' }, 'GET', page],
      [{ 'accept-encoding': 'deflate' }, 'GET', page],
      [{ 'accept-encoding': 'br' }, 'HEAD', page],
      [{ 'accept-encoding': 'br' }, 'GET', small],
    ] as const) {
      const ctx = contextOf(headers, method);
      await sendJsonOnce(ctx, [body]);
      expect(ctx.body, JSON.stringify([headers, method])).to.equal(body);
      expect(ctx.response.get('Content-Encoding')).to.equal(undefined);
    }
  });

  it('sends a body of several buffers as they are, streamed with its length, then joined once sent again, or encoded from all of them', async () => {
    const cut = [page.subarray(0, 100), page.subarray(100, 2_000), page.subarray(2_000)];
    const plain = contextOf({});
    await sendJsonOnce(plain, cut);
    expect(plain.length).to.equal(page.length);
    const chunks: Buffer[] = [];
    for await (const chunk of plain.body as Readable) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(page)).to.equal(true);
    const again = [contextOf({}), contextOf({})];
    for (const ctx of again) await sendJsonOnce(ctx, cut);
    expect(Buffer.isBuffer(again[0]!.body) && (again[0]!.body as Buffer).equals(page)).to.equal(true);
    expect(again[1]!.body, 'joined once').to.equal(again[0]!.body);
    expect(again[1]!.length).to.equal(page.length);
    const zipped = contextOf({ 'accept-encoding': 'gzip' });
    await sendJsonOnce(zipped, cut);
    expect(gunzipSync(zipped.body as Buffer).equals(page)).to.equal(true);
  });
});
