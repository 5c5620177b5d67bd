import { expect } from 'chai';
import { chunks } from '../../../src/lib/chunks';

describe('lib/chunks', () => {
  it('slices in order, the last slice shorter, nothing lost or repeated', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).to.deep.equal([[1, 2], [3, 4], [5]]);
    expect(chunks([1, 2, 3, 4], 2)).to.deep.equal([
      [1, 2],
      [3, 4],
    ]);
    expect(chunks([1], 200)).to.deep.equal([[1]]);
    expect(chunks([], 3)).to.deep.equal([]);
  });
});
