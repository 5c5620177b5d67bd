import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { ExpiringCache } from '../lib/expiringCache';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEY_LENGTH = 32;

/** A salted scrypt hash of an event password, stored as `salt:hash` (hex); never the password. */
export async function hashEventPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LENGTH);
  return `${salt.toString('hex')}:${hash.toString('hex')}`;
}

/**
 * Right passwords are remembered for a minute: an event's audience reads it with its password,
 * and each scrypt costs ~40 ms of CPU and 16 MB. Remembered by an HMAC under a key of this
 * process, never as written; the stored hash is part of it, so a new password forgets the old.
 */
const REMEMBER_MS = 60_000;
const MAX_REMEMBERED = 1_000;
const REMEMBER_KEY = randomBytes(32);
const remembered = new ExpiringCache(REMEMBER_MS, MAX_REMEMBERED);

const rememberedAs = (password: string, stored: string) =>
  createHmac('sha256', REMEMBER_KEY).update(stored).update('\0').update(password).digest('base64');

/**
 * True when `password` matches `stored` (`salt:hash`): scrypt off the event loop, then a
 * constant-time comparison of the derived keys (or a match remembered from the last minute).
 */
export async function verifyEventPassword(password: string, stored: string): Promise<boolean> {
  const key = rememberedAs(password, stored);
  if (remembered.get<boolean>(key)) return true;
  const right = await scryptMatches(password, stored);
  if (right) remembered.set(key, true);
  return right;
}

async function scryptMatches(password: string, stored: string): Promise<boolean> {
  const [saltHex, hashHex] = stored.split(':');
  if (!saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, 'hex');
  if (expected.length === 0) return false;
  const actual = await scryptAsync(password, Buffer.from(saltHex, 'hex'), expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
