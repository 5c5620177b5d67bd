import {
  MongoClient,
  MongoNetworkError,
  MongoServerError,
  type Collection,
  type CreateIndexesOptions,
  type Db,
  type Document,
  type IndexSpecification,
  type OptionalUnlessRequiredId,
} from 'mongodb';

/** `url` with any password in it masked, for messages and logs. */
export function withoutPassword(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

/** One line saying which MongoDB did not answer and what to do (the API, the worker and the ops scripts). */
export function mongoUnreachable(url: string, err: Error): string {
  return `could not connect to MongoDB at ${withoutPassword(url)} (${err.message.split('\n')[0]}): start it (npm run services:start) or set MONGO_URL`;
}

export interface MongoOptions {
  url: string;
  database: string;
  timeoutMs: number;
}

/** Connects with short timeouts so an unreachable server fails requests fast (503) instead of hanging. */
export async function connectMongo(options: MongoOptions): Promise<{ client: MongoClient; db: Db }> {
  const client = new MongoClient(options.url, {
    serverSelectionTimeoutMS: options.timeoutMs,
    connectTimeoutMS: options.timeoutMs,
    socketTimeoutMS: Math.max(options.timeoutMs * 5, 10_000),
    maxPoolSize: 50,
    // jongodb breaks the driver's streaming (awaitable hello) monitor under load; polling works on both.
    serverMonitoringMode: 'poll',
    retryWrites: true,
    appName: 'calendar',
  });
  await client.connect();
  return { client, db: client.db(options.database) };
}

export async function pingMongo(db: Db): Promise<boolean> {
  try {
    await db.command({ ping: 1 });
    return true;
  } catch {
    return false;
  }
}

const STORAGE_ERRORS = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
]);
/**
 * Bare socket errors: the MongoDB driver (6.x) lets some escape unwrapped when the server goes
 * away in the middle of a write (EPIPE from Connection.writeCommand). The Elasticsearch client
 * wraps every transport failure in ConnectionError, so a bare one comes from storage.
 */
const SOCKET_ERROR_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ENOTCONN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** MongoDB server errors of a node shutting down or stepping down (a replica set failover). */
const STORAGE_UNAVAILABLE_CODES = new Set([91, 189, 10107, 11600, 11602, 13435, 13436]);

/** Whether `err` says MongoDB cannot be reached or cannot serve now (not that it refused a command). */
export function isStorageUnavailable(err: Error, depth = 0): boolean {
  const name = err.constructor?.name ?? err.name;
  if (STORAGE_ERRORS.has(name) || STORAGE_ERRORS.has(err.name)) return true;
  // Its subclasses too, whatever their names (PoolClearedOnNetworkError: a server monitor timed out).
  if (err instanceof MongoNetworkError) return true;
  const code = (err as Error & { code?: unknown }).code;
  if (typeof code === 'string' && SOCKET_ERROR_CODES.has(code)) return true;
  // Server errors include their subclasses: a bulk write cut by a shutdown is a MongoBulkWriteError.
  const serverError = err.name === 'MongoServerError' || err instanceof MongoServerError;
  if (serverError && typeof code === 'number' && STORAGE_UNAVAILABLE_CODES.has(code)) return true;
  // A failure wrapped (`cause`) or gathered (AggregateError) is as unavailable as what it holds.
  // A bulk write (bulkWrite, insertMany) wraps a failure of the driver's own (a connection closed,
  // no server to select) in a MongoBulkWriteError that keeps it as `errorResponse`, not as `cause`.
  const { errorResponse } = err as Error & { errorResponse?: unknown };
  const inner = [err.cause, errorResponse, ...(err instanceof AggregateError ? err.errors : [])];
  return depth < 3 && inner.some((e) => e instanceof Error && isStorageUnavailable(e, depth + 1));
}

/** Whether `err` is a duplicate-key error of a unique index (E11000). */
export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: number }).code === 11000;
}

/** Whether every key the write duplicated is an `_id` (the document exists already). */
export function isDuplicateId(err: unknown): boolean {
  if (!isDuplicateKey(err)) return false;
  const writeErrors = (err as { writeErrors?: { errmsg?: string } | { errmsg?: string }[] }).writeErrors;
  const listed = writeErrors === undefined ? [] : ([] as { errmsg?: string }[]).concat(writeErrors);
  const messages = listed.length > 0 ? listed.map((e) => String(e.errmsg)) : [String((err as Error).message)];
  return messages.every((message) => /\b_id_\b/.test(message));
}

/** An index a collection must have. */
export interface WantedIndex {
  key: IndexSpecification & Document;
  options: CreateIndexesOptions & { name: string };
}

/**
 * Creates the `wanted` indexes the collection lacks (same name and key) and drops the `obsolete`
 * ones an earlier version left, from one listing. Creating an existing index is a no-op on
 * MongoDB, but jongodb re-checks every document of the collection for it (90 s for the events of
 * 10k records), so startup would wait minutes on a big database. Dropping is best effort: such an
 * index only costs writes, and jongodb cannot drop indexes (it forgets them on restart anyway).
 */
export async function ensureIndexes(
  collection: Collection<any>,
  wanted: WantedIndex[],
  obsolete: string[] = [],
): Promise<void> {
  const existing = await collection
    .listIndexes()
    .toArray()
    .catch(() => [] as Document[]);
  const has = (name: string, key?: Document) =>
    existing.some((index) => index.name === name && (!key || JSON.stringify(index.key) === JSON.stringify(key)));
  for (const { key, options } of wanted) if (!has(options.name, key)) await collection.createIndex(key, options);
  for (const name of obsolete) if (has(name)) await collection.dropIndex(name).catch(() => undefined);
}

/** `text` as a regular expression matching it literally (for `$regex` queries). */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Inserts documents, leaving as it is any whose `_id` is stored already: one `insertMany` (on
 * jongodb a write costs what its collection holds, once for a whole insert but once per
 * operation of a bulk write), then, only when one was there (a batch seen again after a crash,
 * another worker), an upsert of each that inserts only what is missing.
 */
export async function insertNew<T extends { _id: string }>(docs: Collection<T>, items: T[]): Promise<void> {
  if (items.length === 0) return;
  try {
    await docs.insertMany(items as OptionalUnlessRequiredId<T>[], { ordered: true });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    await docs.bulkWrite(
      items.map((item) => ({
        updateOne: { filter: { _id: item._id } as never, update: { $setOnInsert: item as Partial<T> }, upsert: true },
      })),
    );
  }
}
