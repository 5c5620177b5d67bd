import type { Services } from '../container';
import type { RecordStore } from '../../storage/recordStore';
import type { BaseDoc, StoredRecord } from '../../storage/storedRecord';
import type { Stores } from '../../storage/stores';

/**
 * The services with record reads (`get`, `getMany`) memoised for one batch: the worker presents
 * each batch in three languages, and the views load the same linked records for each.
 */
export function withBatchCache(services: Services): Services {
  const { events, venues, organizers, categories, tags } = services.stores;
  const stores: Stores = {
    events: cachedStore(events),
    venues: cachedStore(venues),
    organizers: cachedStore(organizers),
    categories: cachedStore(categories),
    tags: cachedStore(tags),
  };
  const scoped = { ...services, stores };
  memos.set(scoped, memos.get(services) ?? new Map());
  return scoped;
}

/**
 * Services whose batches (withBatchCache) share one memo of derived figures for a whole run: a
 * full reindex of the events computes the term counts they embed once, not once per batch (lists
 * and single reads show the term index's counts anyway). No record is cached across batches.
 */
export function withRunMemo(services: Services): Services {
  const scoped = { ...services };
  memos.set(scoped, new Map());
  return scoped;
}

const memos = new WeakMap<Services, Map<string, Promise<unknown>>>();

/**
 * `compute(ids)` for the IDs not computed yet in this batch (or run, see withRunMemo) when
 * `services` come from withBatchCache: the views run once per language, and derived figures such
 * as term counts are the same in every language. Computed afresh on every call otherwise
 * (requests must see the current figures). IDs `compute` leaves out get `fallback`.
 */
export async function eachOnceInBatch<V>(
  services: Services,
  namespace: string,
  ids: number[],
  compute: (ids: number[]) => Promise<Map<number, V>>,
  fallback: V,
): Promise<Map<number, V>> {
  const memo = memos.get(services);
  if (!memo) return compute(ids);
  const key = (id: number) => `${namespace}:${id}`;
  const missing = [...new Set(ids)].filter((id) => !memo.has(key(id)));
  if (missing.length > 0) {
    const computed = compute(missing);
    const entries = new Map(missing.map((id) => [key(id), computed.then((values) => values.get(id) ?? fallback)]));
    for (const [entryKey, entry] of entries) memo.set(entryKey, entry);
    // A failure is not memoised: the next batch of a run computes again.
    computed.catch(() => {
      for (const [entryKey, entry] of entries) if (memo.get(entryKey) === entry) memo.delete(entryKey);
    });
  }
  // All at once: every entry's failure is handled (one awaited at a time would leave the rest unhandled).
  const values = await Promise.all(ids.map((id) => memo.get(key(id)) as Promise<V>));
  return new Map(ids.map((id, i) => [id, values[i] as V]));
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
