import { MongoServerError } from 'mongodb';
import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import Joi from 'joi';
import { loadConfig } from '../../../config';
import { createApp } from '../../../src/app/app';
import type { ApiKeyStore } from '../../../src/storage/apiKeys';
import { errorBoundary, toCalendarError } from '../../../src/http/errorBoundary';
import type { AppContext, RouteSpec } from '../../../src/http/types';
import { createLogger } from '../../../src/lib/log';

function named(name: string, props: Record<string, unknown> = {}): Error {
  const err = new Error(`a ${name}`);
  err.name = name;
  return Object.assign(err, props);
}

const mapped = (err: unknown) => {
  const e = toCalendarError(err);
  return [e.status, e.code];
};

class CutBulkWrite extends MongoServerError {
  override get name(): string {
    return 'MongoBulkWriteError';
  }
}

describe('toCalendarError', () => {
  it('maps an unreachable, failing-over or vanishing database to 503 storage-unavailable', () => {
    for (const err of [
      named('MongoServerSelectionError'),
      named('MongoNetworkError'),
      named('MongoPoolClearedError'),
      // The driver lets this one escape unwrapped when the server goes away mid-write.
      Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' }),
      named('MongoServerError', { code: 11600, codeName: 'InterruptedAtShutdown' }),
      named('MongoServerError', { code: 10107, codeName: 'NotWritablePrimary' }),
      // A subclass (a bulk write, as the change log's, cut by the shutdown) keeps the code.
      new CutBulkWrite({ message: 'interrupted at shutdown', code: 11600 }),
      // Wrapped or gathered by the code that met it.
      new Error('could not record the change', { cause: named('MongoNetworkError') }),
      new AggregateError([named('MongoServerSelectionError')], 'writes failed'),
    ])
      expect(mapped(err), err.message).to.deep.equal([503, 'storage-unavailable']);
    expect(toCalendarError(named('MongoNetworkError')).headers).to.deep.equal({ 'Retry-After': '5' });
  });

  it('maps an unreachable, slow or aborted search request to 503 search-unavailable', () => {
    for (const name of ['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError', 'RequestAbortedError'])
      expect(mapped(named(name)), name).to.deep.equal([503, 'search-unavailable']);
  });

  it('maps body parser failures, multipart ones included, to 4xx', () => {
    expect(
      mapped(
        Object.assign(new SyntaxError('Unexpected end of JSON input'), { status: 400, type: 'entity.parse.failed' }),
      ),
    ).to.deep.equal([400, 'rest_invalid_json']);
    expect(mapped(named('PayloadTooLargeError', { status: 413 }))).to.deep.equal([413, 'rest_payload_too_large']);
    // formidable puts the status in httpCode.
    expect(mapped(named('FormidableError', { code: 1012, httpCode: 400 }))).to.deep.equal([400, 'rest_invalid_param']);
    expect(mapped(named('FormidableError', { code: 1009, httpCode: 413 }))).to.deep.equal([
      413,
      'rest_payload_too_large',
    ]);
    // A file part, however small, is refused for what it is.
    expect(mapped(named('FormidableError', { code: 1015, httpCode: 413 }))).to.deep.equal([
      415,
      'rest_unsupported_media_type',
    ]);
  });

  it('keeps anything else a bare 500', () => {
    expect(mapped(named('MongoServerError', { code: 11000 }))).to.deep.equal([500, 'rest_internal_error']);
    expect(mapped(new TypeError('x is undefined'))).to.deep.equal([500, 'rest_internal_error']);
    // A query Elasticsearch refuses is this service's bug, not a bad body.
    const refused = named('ResponseError', { meta: { statusCode: 400 }, statusCode: 400 });
    expect(mapped(refused)).to.deep.equal([500, 'rest_internal_error']);
    expect(mapped('a string')).to.deep.equal([500, 'rest_internal_error']);
  });
});

/** An unexpected error whose message holds what a caller must never see. */
const leaky = () => new TypeError('connect mongodb://user:secret@db.internal:27017 failed');

describe('errorBoundary: unexpected errors', () => {
  it('answers 500 with the generic message, without the internals of the thrown error', async () => {
    const ctx = { path: '/calendar/events/v1/events', response: { get: () => '' }, set() {}, remove() {}, state: {} };
    await errorBoundary('en')(ctx as unknown as AppContext, () => Promise.reject(leaky()));
    const { status, body } = ctx as unknown as { status: number; body: unknown };
    expect(status).to.equal(500);
    expect(body).to.deep.equal({
      code: 'rest_internal_error',
      message: 'Internal server error.',
      data: { status: 500 },
    });
    const text = JSON.stringify(body);
    expect(text).not.to.include('secret');
    expect(text).not.to.include('mongodb://');
  });

  it('keeps the internals out of the HTTP answer of the whole application', async () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    const failing: RouteSpec = {
      methods: ['GET'],
      path: '/leaky',
      resource: 'test',
      summary: 'throws an unexpected error',
      input: Joi.object({}),
      access: 'read',
      handler: () => Promise.reject(leaky()),
    };
    const app = createApp({
      config,
      log: createLogger('silent'),
      // Anonymous requests never look a key up.
      apiKeys: {} as ApiKeyStore,
      routes: [failing],
      health: { mongo: async () => true, elasticsearch: async () => true },
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/calendar/events/v1/leaky`);
      const text = await res.text();
      expect(res.status).to.equal(500);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(JSON.parse(text)).to.deep.equal({
        code: 'rest_internal_error',
        message: 'Internal server error.',
        data: { status: 500 },
      });
      expect(text).not.to.include('secret');
      expect(text).not.to.include('mongodb://');
      for (const [name, value] of res.headers) expect(`${name}: ${value}`).not.to.include('secret');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
