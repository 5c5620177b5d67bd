import type { Db } from 'mongodb';

/** Events, venues and organizers share the post counter; categories and tags the term counter. */
export type CounterName = 'post' | 'term' | 'user';

interface CounterDoc {
  _id: CounterName;
  seq: number;
}

/** Allocates the next ID of a counter atomically; IDs are never reused. */
export async function nextId(db: Db, counter: CounterName): Promise<number> {
  const doc = await db
    .collection<CounterDoc>('counters')
    .findOneAndUpdate({ _id: counter }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' });
  if (!doc) throw new Error(`counter ${counter} did not return a value`);
  return doc.seq;
}

/** Allocates `count` consecutive IDs at once (bulk loads); returns the first. */
export async function nextIds(db: Db, counter: CounterName, count: number): Promise<number> {
  const doc = await db
    .collection<CounterDoc>('counters')
    .findOneAndUpdate({ _id: counter }, { $inc: { seq: count } }, { upsert: true, returnDocument: 'after' });
  if (!doc) throw new Error(`counter ${counter} did not return a value`);
  return doc.seq - count + 1;
}
