import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import { isDuplicateKey } from './mongo';

interface SettingDoc {
  _id: string;
  value: string;
}

const SECRET_ID = 'token_secret';
const secrets = new WeakMap<Db, Promise<string>>();

/**
 * The secret cursors and change tokens are signed with: TOKEN_SECRET when set; otherwise one
 * generated on first use and kept in MongoDB, so every API process on the database (behind a load
 * balancer, or after a restart) accepts the tokens the others gave. Read once per process.
 */
export function tokenSecretOf(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return Promise.resolve(configured);
  let secret = secrets.get(db);
  if (!secret) {
    secret = storedSecret(db);
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return secret;
}

async function storedSecret(db: Db): Promise<string> {
  const settings = db.collection<SettingDoc>('settings');
  const existing = await settings.findOne({ _id: SECRET_ID });
  if (existing) return existing.value;
  try {
    await settings.insertOne({ _id: SECRET_ID, value: randomBytes(32).toString('base64url') });
  } catch (err) {
    // Another process stored its secret first: both use that one.
    if (!isDuplicateKey(err)) throw err;
  }
  const stored = await settings.findOne({ _id: SECRET_ID });
  if (!stored) throw new Error('the token secret could not be stored');
  return stored.value;
}
