/** At most this many IDs in a range per ID asked for, for a range query to be worth it. */
const MAX_RANGE_SPREAD = 2;

/**
 * A filter on `id` matching at least `ids`: equality for one, their range when they are dense
 * (the range holds at most twice as many IDs as asked for; `keep` drops the extras), `$in`
 * otherwise. A range is one index scan on MongoDB, and jongodb tests `$in` value by value for
 * every document (measured: 1.7 s for 500 IDs among 22,000 documents, 0.2 s for the same as a
 * range; one ID among 5,400: 4.4 ms by equality, 8.8 ms by `$in`).
 */
export function idFilter(ids: number[]): { id: number | { $in: number[] } | { $gte: number; $lte: number } } {
  const unique = [...new Set(ids)];
  if (unique.length === 1) return { id: unique[0]! };
  if (unique.length === 0) return { id: { $in: [] } };
  let min = unique[0]!;
  let max = min;
  for (const id of unique) {
    if (id < min) min = id;
    if (id > max) max = id;
  }
  return max - min + 1 <= unique.length * MAX_RANGE_SPREAD ? { id: { $gte: min, $lte: max } } : { id: { $in: unique } };
}

/** Only the documents of `ids` among those `idFilter(ids)` found. */
export function keep<T extends { id: number }>(docs: T[], ids: number[]): T[] {
  const wanted = new Set(ids);
  return docs.filter((doc) => wanted.has(doc.id));
}
