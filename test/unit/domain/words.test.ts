import { expect } from 'chai';
import { withArticle } from '../../../src/domain/words';

describe('withArticle', () => {
  it('puts "an" before a vowel and "a" before a consonant', () => {
    expect(['event', 'organizer', 'venue', 'category', 'tag', 'Event'].map(withArticle)).to.deep.equal([
      'an event',
      'an organizer',
      'a venue',
      'a category',
      'a tag',
      'an Event',
    ]);
  });
});
