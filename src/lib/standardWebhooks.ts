import { createHmac, randomBytes } from 'node:crypto';

/** The Standard Webhooks scheme (standardwebhooks.com): `whsec_` secrets, `v1,` HMAC-SHA256 signatures. */
export const SECRET_PREFIX = 'whsec_';
/** The scheme's bounds on a secret's key: 24 to 64 bytes. */
export const SECRET_MIN_BYTES = 24;
export const SECRET_MAX_BYTES = 64;
export const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** A new secret: `whsec_` and 32 random bytes in base64. */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The key bytes of a secret (`whsec_` + base64); null when it is not one of the scheme's size. */
export function secretKeyBytes(secret: string): Buffer | null {
  if (!SECRET_PATTERN.test(secret)) return null;
  const bytes = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return bytes.length >= SECRET_MIN_BYTES && bytes.length <= SECRET_MAX_BYTES ? bytes : null;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the secret's key bytes. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = secretKeyBytes(secret);
  if (!key) throw new Error('not a whsec_ secret');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}
