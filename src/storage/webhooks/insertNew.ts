import type { Collection, OptionalUnlessRequiredId } from 'mongodb';

/**
 * Inserts the documents whose `_id` is not stored yet, in one request (`insertMany`: jongodb
 * copies a collection on each write, once for a whole insert but once per operation of a bulk
 * write); one stored meanwhile by another worker is left as it is.
 */
export async function insertNew<T extends { _id: string }>(docs: Collection<T>, items: T[]): Promise<void> {
  if (items.length === 0) return;
  const ids = items.map((item) => item._id);
  const stored = await docs.find({ _id: { $in: ids } } as never, { projection: { _id: 1 } }).toArray();
  const storedIds = new Set<unknown>(stored.map((doc) => doc._id));
  const fresh = items.filter((item) => !storedIds.has(item._id)) as OptionalUnlessRequiredId<T>[];
  if (fresh.length === 0) return;
  await docs.insertMany(fresh, { ordered: true }).catch(async (err: unknown) => {
    if ((err as { code?: number }).code !== 11000) throw err;
    await docs.bulkWrite(
      fresh.map((item) => ({
        updateOne: { filter: { _id: item._id } as never, update: { $setOnInsert: item as Partial<T> }, upsert: true },
      })),
    );
  });
}
