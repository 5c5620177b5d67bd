import { expect } from 'chai';
import { SizedCache } from '../../../src/lib/sizedCache';

describe('lib/SizedCache', () => {
  it('keeps strings up to its bound in characters, dropping the least recently used first', () => {
    const cache = new SizedCache(10);
    cache.set('a', '1234');
    cache.set('b', '1234');
    expect(cache.get('a')).to.equal('1234');
    cache.set('c', '1234');
    expect(cache.get('b')).to.equal(undefined);
    expect(cache.get('a')).to.equal('1234');
    expect(cache.get('c')).to.equal('1234');
    cache.set('a', '123456');
    expect(cache.get('c')).to.equal('1234');
    expect(cache.get('a')).to.equal('123456');
    expect(cache.size).to.equal(2);
  });

  it('does not keep a string longer than its bound, nor the one it replaces', () => {
    const cache = new SizedCache(3);
    cache.set('a', 'abc');
    cache.set('a', 'abcd');
    expect(cache.get('a')).to.equal(undefined);
    expect(cache.size).to.equal(0);
  });

  it('weighs any value by its length: buffers by their bytes, not characters', () => {
    const cache = new SizedCache<Buffer>(7);
    cache.set('a', Buffer.from('été'));
    cache.set('b', Buffer.from('abc'));
    expect(cache.size).to.equal(1);
    expect(cache.get('a')).to.equal(undefined);
    expect(cache.get('b')?.toString()).to.equal('abc');
  });
});
