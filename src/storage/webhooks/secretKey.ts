import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../../config';

/**
 * The key sealing subscription secrets: WEBHOOK_SECRET_KEY; else, outside production, the key in
 * WEBHOOK_SECRET_KEY_FILE, generated on first use and kept for the next starts (a key that
 * changed would leave every stored secret unreadable). Null: production without a key.
 */
export function webhookSecretKey(settings: Config['webhooks']): Buffer | null {
  if (settings.secretKey) return settings.secretKey;
  if (!settings.secretKeyFile) return null;
  const file = path.resolve(settings.secretKeyFile);
  try {
    return decode(readFileSync(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    // Another process made it first: theirs is the key.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return decode(readFileSync(file, 'utf8'), file);
}

function decode(text: string, file: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file}: not a 32-byte key in base64`);
  return key;
}
