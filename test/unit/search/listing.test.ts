import { expect } from 'chai';
import { pageRequest } from '../../../src/services/queries/listing';
import { BadRequestError } from '../../../src/domain/errors';

describe('search/listing pageRequest', () => {
  it('pages from 1, caps per_page at 50', () => {
    expect(pageRequest(1, 6)).to.deep.equal({ page: 1, perPage: 6, from: 0, size: 6 });
    expect(pageRequest(3, 500)).to.deep.equal({ page: 3, perPage: 50, from: 100, size: 50 });
  });

  it('refuses results past the 10,000th with page-too-deep', () => {
    expect(pageRequest(200, 50)).to.include({ from: 9950, size: 50 });
    expect(pageRequest(1429, 7)).to.include({ from: 9996, size: 4 });
    expect(() => pageRequest(201, 50))
      .to.throw(BadRequestError)
      .with.property('code', 'page-too-deep');
  });
});
