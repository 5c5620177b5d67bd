import { expect } from 'chai';
import { idFilter, keep } from '../../../src/storage/idFilter';

describe('storage/idFilter', () => {
  it('asks for one ID by equality', () => {
    expect(idFilter([7])).to.deep.equal({ id: 7 });
    expect(idFilter([7, 7])).to.deep.equal({ id: 7 });
  });

  it('asks for dense IDs as their range, sparse ones as a list', () => {
    expect(idFilter([5, 3, 4, 8])).to.deep.equal({ id: { $gte: 3, $lte: 8 } });
    expect(idFilter([1, 100])).to.deep.equal({ id: { $in: [1, 100] } });
  });

  it('matches nothing for no IDs', () => {
    expect(idFilter([])).to.deep.equal({ id: { $in: [] } });
  });

  it('keeps only the documents asked for from a range', () => {
    const docs = [3, 4, 5, 6, 7, 8].map((id) => ({ id }));
    expect(keep(docs, [5, 3, 4, 8]).map((d) => d.id)).to.deep.equal([3, 4, 5, 8]);
  });
});
