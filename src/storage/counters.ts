import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';

/**
 * Events, venues and organizers share the post counter; categories and tags the term counter;
 * `change` numbers the change log (src/storage/changeLog.ts).
 */
export type CounterName = 'post' | 'term' | 'user' | 'change' | 'subscription';

interface CounterDoc {
  _id: CounterName;
  seq: number;
  /** Token of the last allocation, to recognise one's own post-image. */
  by?: string;
}

const MAX_ATTEMPTS = 100;

/**
 * Adds `count` to a counter atomically and returns the new value. The update also stamps a
 * token, and a post-image without it is discarded and the allocation repeated: jongodb, under
 * concurrent calls, can return a post-image that already includes another caller's increment, so
 * two callers would get the same ID (and their records collide or merge). The discarded values
 * are gaps; IDs are never reused.
 */
async function allocate(db: Db, counter: CounterName, count: number, collection: string): Promise<number> {
  const counters = db.collection<CounterDoc>(collection);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const by = randomBytes(8).toString('hex');
    const doc = await counters.findOneAndUpdate(
      { _id: counter },
      { $inc: { seq: count }, $set: { by } },
      { upsert: true, returnDocument: 'after' },
    );
    if (!doc) throw new Error(`counter ${counter} did not return a value`);
    if (doc.by === by) return doc.seq;
  }
  throw new Error(`counter ${counter}: no allocation of its own after ${MAX_ATTEMPTS} attempts`);
}

/** Allocates the next ID of a counter atomically; IDs are never reused. */
export async function nextId(db: Db, counter: CounterName): Promise<number> {
  return allocate(db, counter, 1, 'counters');
}

/**
 * Allocates `count` consecutive IDs at once (bulk loads); returns the first. `collection`: where
 * the counter lives (the change log numbers its entries apart from the record IDs).
 */
export async function nextIds(db: Db, counter: CounterName, count: number, collection = 'counters'): Promise<number> {
  return (await allocate(db, counter, count, collection)) - count + 1;
}
