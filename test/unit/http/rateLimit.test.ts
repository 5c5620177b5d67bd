import { expect } from 'chai';
import { clientAddress, createRateLimits, limitKey, TokenBuckets } from '../../../src/http/rateLimit';
import { RateLimitedError } from '../../../src/domain/errors';

/** A request context from `ip`, with these headers. */
const from = (ip: string, headers: Record<string, string> = {}) =>
  ({ ip, get: (name: string) => headers[name.toLowerCase()] ?? '' }) as never;

describe('http/rateLimit', () => {
  it('gives a minute’s burst, then refills continuously', () => {
    let now = 0;
    const buckets = new TokenBuckets(3, () => now);
    expect([buckets.take('k'), buckets.take('k'), buckets.take('k')]).to.deep.equal([0, 0, 0]);
    expect(buckets.take('k')).to.equal(20);
    now += 10_000;
    expect(buckets.take('k')).to.equal(10);
    now += 10_000;
    expect(buckets.take('k')).to.equal(0);
    expect(buckets.take('other')).to.equal(0);
    now += 10 * 60_000;
    expect([buckets.take('k'), buckets.take('k'), buckets.take('k'), buckets.take('k')]).to.deep.equal([0, 0, 0, 20]);
  });

  it('waits at least one second when less than a token is missing', () => {
    let now = 0;
    const buckets = new TokenBuckets(600, () => now);
    for (let i = 0; i < 600; i++) buckets.take('k');
    now += 99;
    expect(buckets.waitSeconds('k')).to.equal(1);
  });

  it('blocks an address after too many failed authentications, until it refills', () => {
    let now = 0;
    const limits = createRateLimits(
      { enabled: true, writesPerKey: 10, writesPerIp: 10, authFailuresPerIp: 2, walksPerIp: 10, trustedProxies: 0 },
      () => now,
    );
    // An attempt that was no failure (a right key or password) is taken back and costs nothing.
    limits.attempt(from('1.2.3.4'))();
    limits.attempt(from('1.2.3.4'));
    limits.attempt(from('1.2.3.4'));
    expect(() => limits.attempt(from('1.2.3.4')))
      .to.throw(RateLimitedError)
      .that.deep.includes({ status: 429, code: 'rest_rate_limited', headers: { 'Retry-After': '30' } });
    limits.attempt(from('5.6.7.8'));
    now += 30_000;
    limits.attempt(from('1.2.3.4'));
  });

  it('keeps the limits of an IPv6 client by its /64: rotating addresses within it gets no fresh bucket', () => {
    const limits = createRateLimits(
      { enabled: true, writesPerKey: 10, writesPerIp: 10, authFailuresPerIp: 2, walksPerIp: 10, trustedProxies: 0 },
      () => 0,
    );
    limits.attempt(from('2001:db8:1:2::a'));
    limits.attempt(from('2001:db8:1:2:ffff:1:2:3'));
    expect(() => limits.attempt(from('2001:0db8:0001:0002::b'))).to.throw(RateLimitedError);
    limits.attempt(from('2001:db8:1:3::a'));
    expect(limitKey('::ffff:192.0.2.7')).to.equal('192.0.2.7');
    expect(limitKey('192.0.2.7')).to.equal('192.0.2.7');
    expect(limitKey('::1')).to.equal('0:0:0:0::/64');
    expect(limitKey('fe80::1%eth0')).to.equal('fe80:0:0:0::/64');
    expect(limitKey('2001:db8::')).to.equal('2001:db8:0:0::/64');
  });

  it('does nothing when turned off', async () => {
    const limits = createRateLimits({
      enabled: false,
      writesPerKey: 1,
      writesPerIp: 1,
      authFailuresPerIp: 1,
      walksPerIp: 1,
      trustedProxies: 0,
    });
    for (let i = 0; i < 5; i++) limits.attempt(from('1.2.3.4'));
    limits.attempt(from('1.2.3.4'));
    for (let i = 0; i < 5; i++) limits.started(from('1.2.3.4'));
    let calls = 0;
    const ctx = { method: 'POST', ip: '1.2.3.4', state: { principal: { keyId: 'k' } } } as never;
    for (let i = 0; i < 5; i++) await limits.middleware(ctx, async () => void calls++);
    expect(calls).to.equal(5);
  });

  it('takes the client address from the trusted proxies only', () => {
    const headers = { 'x-forwarded-for': 'forged, 203.0.113.7' };
    expect(clientAddress(from('10.0.0.1', headers), 0)).to.equal('10.0.0.1');
    expect(clientAddress(from('10.0.0.1', headers), 1)).to.equal('203.0.113.7');
    expect(clientAddress(from('10.0.0.2', { 'x-forwarded-for': 'forged, 203.0.113.7, 10.0.0.1' }), 2)).to.equal(
      '203.0.113.7',
    );
    expect(clientAddress(from('10.0.0.1', { 'x-forwarded-for': '203.0.113.7' }), 3)).to.equal('203.0.113.7');
    expect(clientAddress(from('10.0.0.1'), 1)).to.equal('10.0.0.1');
  });
});
