import { MongoClient, type Db } from 'mongodb';

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
    monitorCommands: process.env.MONGO_MONITOR === '1',
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

/** Whether `err` is a duplicate-key error of a unique index (E11000). */
export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: number }).code === 11000;
}
