import { expect } from 'chai';
import { MongoBulkWriteError, MongoNetworkError, MongoServerSelectionError, type BulkWriteResult } from 'mongodb';
import { isStorageUnavailable } from '../../../src/storage/mongo';

// Internal to the driver (neither exported nor typed): what it throws at writes in flight when a monitor times out.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PoolClearedOnNetworkError } = require('mongodb/lib/cmap/errors') as {
  PoolClearedOnNetworkError: new (pool: { address: string }) => MongoNetworkError;
};

/** The figures of a batch that failed before the server answered (the error only keeps them). */
const nothingWritten = { insertedCount: 0, matchedCount: 0, modifiedCount: 0 } as unknown as BulkWriteResult;

describe('isStorageUnavailable', () => {
  // As caught when MongoDB was killed under POST /events and /venues (ChangeLog.record and
  // ChangeMarks.bump in SyncQueue.commit): the driver wraps its own failure of a bulk write's batch
  // in a MongoBulkWriteError with no code and no cause, keeping the failure as `errorResponse`.
  it('sees the connection closed under a bulk write', () => {
    const cut = new MongoBulkWriteError(
      new MongoNetworkError('connection 58 to 127.0.0.1:41159 closed'),
      nothingWritten,
    );
    expect([cut.name, cut.code, cut.cause]).to.deep.equal(['MongoBulkWriteError', undefined, undefined]);
    expect(cut.errorResponse).to.be.instanceOf(MongoNetworkError);
    expect(isStorageUnavailable(cut)).to.equal(true);
  });

  it('sees the failed server selection of a bulk write', () => {
    const refused = new MongoServerSelectionError('connect ECONNREFUSED 127.0.0.1:41159', {} as never);
    expect(isStorageUnavailable(new MongoBulkWriteError(refused, nothingWritten))).to.equal(true);
  });

  it('sees every network error, whatever its subclass is named', () => {
    const interrupted = new PoolClearedOnNetworkError({ address: '127.0.0.1:27017' });
    expect(interrupted.name).to.equal('PoolClearedOnNetworkError');
    expect(isStorageUnavailable(interrupted)).to.equal(true);
  });

  it('keeps a bulk write the server refused (a duplicate key, a bad update) a failure of its own', () => {
    for (const [code, message] of [
      [11000, 'E11000 duplicate key error collection: change_log index: _id_'],
      [14, 'Cannot apply $inc to a value of non-numeric type'],
    ] as const) {
      const refused = new MongoBulkWriteError({ message, code }, nothingWritten);
      expect(refused.errorResponse).not.to.be.instanceOf(Error);
      expect(isStorageUnavailable(refused), message).to.equal(false);
    }
  });
});
