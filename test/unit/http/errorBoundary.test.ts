import { expect } from 'chai';
import { toCalendarError } from '../../../src/http/errorBoundary';

function named(name: string, props: Record<string, unknown> = {}): Error {
  const err = new Error(`a ${name}`);
  err.name = name;
  return Object.assign(err, props);
}

const mapped = (err: unknown) => {
  const e = toCalendarError(err);
  return [e.status, e.code];
};

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
