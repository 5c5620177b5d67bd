import type { Services } from '../services';
import type { BaseDoc, RecordStore, StoredRecord } from '../storage/recordStore';
import type { Stores } from '../storage/stores';

/**
 * The services with record reads (`get`, `getMany`) memoised for one batch: the worker presents
 * each batch in three languages, and the views load the same linked records for each.
 */
export function withBatchCache(services: Services): Services {
  const stores = Object.fromEntries(
    Object.entries(services.stores).map(([name, store]) => [name, cachedStore(store as RecordStore<BaseDoc>)]),
  ) as unknown as Stores;
  const scoped = { ...services, stores };
  memos.set(scoped, new Map());
  return scoped;
}

const memos = new WeakMap<Services, Map<string, Promise<unknown>>>();

/**
 * `compute()` once per batch for `key` when `services` come from withBatchCache (the views run
 * once per language, and derived figures such as term counts are the same in every language);
 * computed afresh on every call otherwise (requests must see the current figures).
 */
export function onceInBatch<T>(services: Services, key: string, compute: () => Promise<T>): Promise<T> {
  const memo = memos.get(services);
  if (!memo) return compute();
  let found = memo.get(key) as Promise<T> | undefined;
  if (!found) {
    found = compute();
    memo.set(key, found);
  }
  return found;
}

function cachedStore<D extends BaseDoc>(store: RecordStore<D>): RecordStore<D> {
  const many = new Map<string, Promise<Map<number, StoredRecord<D>>>>();
  const getMany = (ids: number[]): Promise<Map<number, StoredRecord<D>>> => {
    const key = [...new Set(ids)].sort((a, b) => a - b).join(',');
    let found = many.get(key);
    if (!found) {
      found = store.getMany(ids);
      many.set(key, found);
    }
    return found;
  };
  const get = async (id: number): Promise<StoredRecord<D> | null> => (await getMany([id])).get(id) ?? null;
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'getMany') return getMany;
      if (property === 'get') return get;
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
