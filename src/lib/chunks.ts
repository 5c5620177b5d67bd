/** `items` in consecutive slices of at most `size` (the last one shorter). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const slices: T[][] = [];
  for (let start = 0; start < items.length; start += size) slices.push(items.slice(start, start + size));
  return slices;
}
