import { expect } from 'chai';
import { fullTextQuery } from '../../../src/search/fullText';

/** The words a query looks for with typos, from its `match` clauses on the plain subfield. */
function fuzzyWords(query: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const match = value as { query?: string; fuzziness?: string };
      if (key.endsWith('.plain') && match.fuzziness) found.push(match.query as string);
      walk(value);
    }
  };
  walk(query);
  return found;
}

describe('search/fullText fullTextQuery', () => {
  it('looks for typos in each word of a short search, and in the search as a whole', () => {
    expect(fuzzyWords(fullTextQuery('jazz soirée', 'title', []))).to.deep.equal(['jazz', 'soirée', 'jazz soirée']);
  });

  it('matches words past 30 characters as written, and looks for typos in the first 10 words only', () => {
    const long = 'x'.repeat(31);
    expect(fuzzyWords(fullTextQuery(`jazz ${long}`, 'title', []))).to.deep.equal(['jazz']);
    const many = Array.from({ length: 12 }, (_, i) => `word${i}`);
    expect(fuzzyWords(fullTextQuery(many.join(' '), 'title', []))).to.deep.equal(many.slice(0, 10));
    // A long compound is still within reach: Veranstaltungskalenderwochenende has 32 letters, this 30.
    expect(fuzzyWords(fullTextQuery('Veranstaltungskalenderwochenen', 'title', []))).to.have.length(2);
  });
});
