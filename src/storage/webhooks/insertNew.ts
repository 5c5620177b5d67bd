import type { Collection, OptionalUnlessRequiredId } from 'mongodb';

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
    if ((err as { code?: number }).code !== 11000) throw err;
    await docs.bulkWrite(
      items.map((item) => ({
        updateOne: { filter: { _id: item._id } as never, update: { $setOnInsert: item as Partial<T> }, upsert: true },
      })),
    );
  }
}
