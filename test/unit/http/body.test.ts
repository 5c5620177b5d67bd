import { expect } from 'chai';
import { foldArrayFields } from '../../../src/http/body';

describe('http/body foldArrayFields', () => {
  it('reads name[] fields as lists under their name, one value or many, keeping the others', () => {
    expect(
      foldArrayFields({ 'tags[]': ['1', 'jazz'], 'venue[]': '4', title: 'Night', categories: '2,3' }),
    ).to.deep.equal({
      tags: ['1', 'jazz'],
      venue: ['4'],
      title: 'Night',
      categories: '2,3',
    });
  });

  it('joins a plain field and its [] form in the order they come', () => {
    expect(foldArrayFields({ organizer: '1', 'organizer[]': ['2', '3'] })).to.deep.equal({
      organizer: ['1', '2', '3'],
    });
  });
});
