/**
 * `compute` remembered by key, forgetting everything once `max` keys are held (the keys used
 * together, such as one batch's events, stay cheap; memory stays bounded).
 */
export function boundedMemo<A, V, K = string>(
  max: number,
  keyOf: (arg: A) => K,
  compute: (arg: A) => V,
): (arg: A) => V {
  const memo = new Map<K, V>();
  return (arg) => {
    const key = keyOf(arg);
    let found = memo.get(key);
    if (found === undefined) {
      if (memo.size >= max) memo.clear();
      found = compute(arg);
      memo.set(key, found);
    }
    return found;
  };
}

/** `value` and everything in it frozen: what a memo hands out is shared and must not change. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
