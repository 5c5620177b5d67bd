import { expect } from 'chai';
import type { BulkOperation } from '../../../src/indexer/bulkIndexer';
import { withReindexTargets } from '../../../src/indexer/reindexTargets';

describe('search/reindexTargets: mirroring writes to indexes being rebuilt', () => {
  const index: BulkOperation = { action: 'index', index: 'p-events-en', id: '7', version: 3, document: { id: 7 } };
  const remove: BulkOperation = { action: 'delete', index: 'p-events-fr', id: '7', version: 3 };

  it('without rebuilds, the operations are unchanged', () => {
    expect(withReindexTargets([index, remove], new Map())).to.deep.equal([index, remove]);
  });

  it('each operation is copied, same version, to every index rebuilt behind its alias', () => {
    const targets = new Map([['p-events-en', ['p-events-en-rebuild']]]);
    expect(withReindexTargets([index, remove], targets)).to.deep.equal([
      index,
      { ...index, index: 'p-events-en-rebuild' },
      remove,
    ]);
  });
});
