import { isIP } from 'node:net';
import type { Middleware } from 'koa';
import type { Config } from '../../config';
import { RateLimitedError } from '../domain/errors';
import type { AppContext, AppState } from './types';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Buckets kept at most; the fullest (least recently emptied) are dropped first when exceeded. */
const MAX_BUCKETS = 100_000;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * In-memory token buckets: `perMinute` tokens refilled continuously, at most `perMinute` stored
 * (one minute's burst). Each process has its own: deployments with several API instances need a
 * shared store (or limits at the proxy) for a global limit.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
  }

  private refill(key: string): Bucket {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, updatedAt: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.updatedAt) * this.perMs);
    bucket.updatedAt = now;
    // Re-inserted so that the map's order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value as string);
    return bucket;
  }

  /** Seconds until `key` has a whole token again; 0 when it has one now. */
  waitSeconds(key: string): number {
    const bucket = this.refill(key);
    return bucket.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000));
  }

  /** Takes a token: 0 when one was there, else the seconds to wait (nothing taken). */
  take(key: string): number {
    const wait = this.waitSeconds(key);
    if (wait === 0) this.buckets.get(key)!.tokens -= 1;
    return wait;
  }

  /** Returns a token taken for an attempt that turned out well. */
  giveBack(key: string): void {
    const bucket = this.refill(key);
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + 1);
  }
}

/** Failed authentications per address: unknown API keys and wrong event passwords alike. */
export interface AuthenticationLimits {
  /**
   * Before checking a presented key or password: counts the attempt as a failure of the caller's
   * address at once (429 when none is left), so that parallel guesses cannot all pass before the
   * first one fails. Returns the call that takes it back when the attempt was no failure.
   */
  attempt(ctx: AppContext): () => void;
}

/**
 * Walks started per address: a `cursor=` list's first page or an export, each holding an
 * Elasticsearch point in time for 5 minutes, which nothing else would bound.
 */
export interface WalkLimits {
  /** Before a walk opens its point in time: counts it for the caller's address (429 when none is left). */
  started(ctx: AppContext): void;
}

/** What routes check themselves (`ctx.state.limits`): other secrets than keys, and walks started. */
export type RequestLimits = AuthenticationLimits & WalkLimits;

export const NO_REQUEST_LIMITS: RequestLimits = Object.freeze({
  attempt: () => () => undefined,
  started: () => undefined,
});

/** The limits of one API process (CONTRACT part 6 "Abuse"; documented in the /doc guide). */
export interface RateLimits extends RequestLimits {
  /** Limits writes. */
  middleware: Middleware<AppState>;
}

/**
 * The address limits apply to: the connection's, or behind `trustedProxies` reverse proxies the
 * `trustedProxies`-th `X-Forwarded-For` entry from the right (entries further left are the
 * client's to forge). Not Koa's `proxy` mode, which would also trust forwarded hosts in URLs.
 */
export function clientAddress(ctx: Pick<AppContext, 'ip' | 'get'>, trustedProxies: number): string {
  if (trustedProxies === 0) return ctx.ip;
  const forwarded = ctx
    .get('X-Forwarded-For')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (forwarded.length === 0) return ctx.ip;
  return forwarded[Math.max(0, forwarded.length - trustedProxies)]!;
}

/**
 * What a client's limits are kept by: its IPv4 address (also when written IPv4-mapped), or the /64
 * of its IPv6 address, since one host usually holds a whole /64 and could take a fresh address,
 * and with it fresh buckets, for every request.
 */
export function limitKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

const tooMany = (what: string, seconds: number) =>
  new RateLimitedError(`Too many ${what}; retry in ${seconds} second${seconds === 1 ? '' : 's'}.`, seconds);

export function createRateLimits(config: Config['rateLimit'], now: () => number = Date.now): RateLimits {
  if (!config.enabled) {
    return { ...NO_REQUEST_LIMITS, middleware: (_ctx, next) => next() };
  }
  const failures = new TokenBuckets(config.authFailuresPerIp, now);
  const writesPerKey = new TokenBuckets(config.writesPerKey, now);
  const writesPerIp = new TokenBuckets(config.writesPerIp, now);
  const walksPerIp = new TokenBuckets(config.walksPerIp, now);
  return {
    attempt(ctx) {
      const address = limitKey(clientAddress(ctx, config.trustedProxies));
      const wait = failures.take(address);
      if (wait > 0) throw tooMany('failed authentications from this address', wait);
      return () => failures.giveBack(address);
    },
    started(ctx) {
      const wait = walksPerIp.take(limitKey(clientAddress(ctx, config.trustedProxies)));
      if (wait > 0) throw tooMany('walks started from this address (cursor= lists and exports)', wait);
    },
    /** Writes: one token from the address's bucket and, with a key, one from the key's. */
    middleware: async (ctx, next) => {
      if (WRITE_METHODS.has(ctx.method)) {
        const keyId = ctx.state.principal?.keyId;
        const byKey = keyId ? writesPerKey.waitSeconds(keyId) : 0;
        const address = limitKey(clientAddress(ctx, config.trustedProxies));
        const byIp = writesPerIp.waitSeconds(address);
        if (byKey > 0 || byIp > 0)
          throw tooMany(byKey > 0 ? 'writes with this API key' : 'writes from this address', Math.max(byKey, byIp));
        if (keyId) writesPerKey.take(keyId);
        writesPerIp.take(address);
      }
      await next();
    },
  };
}
