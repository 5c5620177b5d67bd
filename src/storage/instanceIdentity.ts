import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import { isDuplicateKey } from './mongo';

interface IdentityDoc {
  _id: 'identity';
  id: string;
  createdAt: Date;
}

/**
 * This database's identity, created on first use: the search indexes built from it carry the
 * same (`_meta.instance`), so an index left beside another database (a MongoDB restored, replaced
 * or, with the embedded jongodb, restarted empty) is told apart and rebuilt.
 */
export async function ensureInstanceId(db: Db): Promise<string> {
  const identities = db.collection<IdentityDoc>('instance');
  try {
    await identities.updateOne(
      { _id: 'identity' },
      { $setOnInsert: { id: randomUUID(), createdAt: new Date() } },
      { upsert: true },
    );
  } catch (err) {
    // Another process created it at the same moment.
    if (!isDuplicateKey(err)) throw err;
  }
  // Read back: with two processes starting together, the first insert is the identity.
  const stored = await identities.findOne({ _id: 'identity' });
  if (!stored) throw new Error('the database identity could not be stored');
  return stored.id;
}
