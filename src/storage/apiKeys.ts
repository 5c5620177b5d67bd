import { createHash, randomBytes } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import type { Role } from '../domain/principal';
import { nextId } from './counters';
import { ensureIndexes } from './mongo';
import { ExpiringCache } from '../lib/expiringCache';

export const ROLES: Role[] = ['administrator', 'editor', 'author', 'contributor'];
const KEY_PREFIX = 'cal_';
const KEY_SHAPE = /^cal_[A-Za-z0-9_-]{43}$/;
/** Verifications remembered at most (by hash; past it, the oldest go first). */
const MAX_CACHED_KEYS = 10_000;

export interface ApiKeyRecord {
  id: string;
  name: string;
  role: Role;
  userId: number;
  createdAt: Date;
  revokedAt: Date | null;
}

interface ApiKeyDoc extends ApiKeyRecord {
  _id: string;
  hash: string;
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * API keys, stored only as SHA-256 hashes of 256-bit random secrets. A verification is
 * remembered for `cacheMs` (by hash; concurrent requests with one key share one read): a
 * revocation by this store shows at once, one made elsewhere (another process) within `cacheMs`.
 */
export class ApiKeyStore {
  private readonly keys: Collection<ApiKeyDoc>;
  private readonly verified: ExpiringCache | null;

  constructor(
    private readonly db: Db,
    cacheMs = 0,
  ) {
    this.keys = db.collection<ApiKeyDoc>('api_keys');
    this.verified = cacheMs > 0 ? new ExpiringCache(cacheMs, MAX_CACHED_KEYS) : null;
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.keys, [{ key: { hash: 1 }, options: { unique: true, name: 'hash_unique' } }]);
  }

  /** Creates a key and returns its secret: the only time the secret exists outside the caller. */
  async create(name: string, role: Role): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const id = randomBytes(6).toString('hex');
    const record: ApiKeyRecord = {
      id,
      name,
      role,
      userId: await nextId(this.db, 'user'),
      createdAt: new Date(),
      revokedAt: null,
    };
    await this.keys.insertOne({ _id: id, hash: hashKey(key), ...record });
    return { key, record };
  }

  async list(): Promise<ApiKeyRecord[]> {
    const docs = await this.keys.find({}).sort({ createdAt: 1 }).toArray();
    return docs.map(({ id, name, role, userId, createdAt, revokedAt }) => ({
      id,
      name,
      role,
      userId,
      createdAt,
      revokedAt,
    }));
  }

  /** Whether `userId` belongs to a key, revoked or not: users are the holders of keys. */
  async hasUser(userId: number): Promise<boolean> {
    return (await this.keys.countDocuments({ userId }, { limit: 1 })) > 0;
  }

  async count(): Promise<number> {
    return this.keys.countDocuments({});
  }

  async revoke(id: string): Promise<boolean> {
    const result = await this.keys.updateOne({ _id: id, revokedAt: null }, { $set: { revokedAt: new Date() } });
    this.verified?.clear();
    return result.modifiedCount === 1;
  }

  /** The active key matching `key`, or null for malformed, unknown and revoked keys. */
  async verify(key: string): Promise<ApiKeyRecord | null> {
    if (!KEY_SHAPE.test(key)) return null;
    const hash = hashKey(key);
    return this.verified ? this.verified.shared(hash, () => this.active(hash)) : this.active(hash);
  }

  private async active(hash: string): Promise<ApiKeyRecord | null> {
    const doc = await this.keys.findOne({ hash });
    // Found by its hash, an index lookup: nothing secret is compared here.
    if (!doc || doc.revokedAt) return null;
    return {
      id: doc.id,
      name: doc.name,
      role: doc.role,
      userId: doc.userId,
      createdAt: doc.createdAt,
      revokedAt: null,
    };
  }
}
