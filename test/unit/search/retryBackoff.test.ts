import { expect } from 'chai';
import { RetryBackoff, retryDelayMs } from '../../../src/lib/retryBackoff';

describe('search/retryBackoff', () => {
  it('doubles the wait with each failure in a row, from 0.5 s up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map(retryDelayMs)).to.deep.equal([
      500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('counts failures per key and starts over after a success', () => {
    const backoff = new RetryBackoff<string>();
    expect([backoff.failed('event:1'), backoff.failed('event:1'), backoff.failed('venue:2')]).to.deep.equal([
      500, 1_000, 500,
    ]);
    backoff.succeeded('event:1');
    expect(backoff.failed('event:1')).to.equal(500);
    expect(backoff.failed('venue:2')).to.equal(1_000);
  });
});
