import type { SyncQueue } from '../storage/syncQueue';

/** How long a cached figure may be served; lists are eventually consistent by about as much. */
export const LIST_CACHE_TTL_MS = 1_000;
/** Keys come from requests (slugs, IDs): beyond this many the oldest are forgotten. */
const LIST_CACHE_MAX_ENTRIES = 10_000;

interface Entry {
  value: unknown;
  until: number;
}

/**
 * Per-process memory of slowly changing figures that list requests look up on every call (which
 * term IDs and slugs exist, term counts in the index). An entry lives at most LIST_CACHE_TTL_MS,
 * and everything is dropped as soon as this process writes or indexes anything (the sync queue's
 * `dirty` and `indexed` events): a process sees its own changes at once, others' within a second.
 */
export class ListCache {
  private entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = LIST_CACHE_TTL_MS,
    private readonly maxEntries = LIST_CACHE_MAX_ENTRIES,
  ) {}

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    return entry && entry.until > Date.now() ? (entry.value as T) : undefined;
  }

  /** The last value set for `key`, even past its time (until the cache is cleared): what to refresh. */
  last<T>(key: string): T | undefined {
    return this.entries.get(key)?.value as T | undefined;
  }

  /** Entries stay in the order they were last set: past the bound, the oldest go first. */
  set(key: string, value: unknown): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until: Date.now() + this.ttlMs });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /**
   * The value remembered for `key`, else `read()`'s. The read is remembered as a promise at once,
   * so the requests arriving while it runs share it; a failed read is forgotten.
   */
  shared<T>(key: string, read: () => Promise<T>): Promise<T> {
    return this.sharedMany<string, T>(key, [''], async () => new Map([['', await read()]])).then(
      ([value]) => value as T,
    );
  }

  /**
   * The value of each of `keys` (undefined: none), remembered per key like `shared`: the keys not
   * remembered are read together by one `readMany` call.
   */
  sharedMany<K extends string | number, V>(
    prefix: string,
    keys: K[],
    readMany: (keys: K[]) => Promise<Map<K, V>>,
  ): Promise<(V | undefined)[]> {
    const entryKey = (key: K) => `${prefix}:${key}`;
    const lookups = new Map<K, Promise<V | undefined>>();
    const unknown: K[] = [];
    for (const key of new Set(keys)) {
      const known = this.get<Promise<V | undefined>>(entryKey(key));
      if (known) lookups.set(key, known);
      else unknown.push(key);
    }
    if (unknown.length > 0) {
      const reading = readMany(unknown);
      for (const key of unknown) {
        const lookup = reading.then((found) => found.get(key));
        lookup.catch(() => this.delete(entryKey(key)));
        this.set(entryKey(key), lookup);
        lookups.set(key, lookup);
      }
    }
    return Promise.all(keys.map((key) => lookups.get(key)!));
  }

  clear(): void {
    this.entries = new Map();
  }
}

const caches = new WeakMap<SyncQueue, ListCache>();

/** The cache of the process's services (keyed by their sync queue, shared by every copy of them). */
export function listCacheOf(services: { sync: SyncQueue }): ListCache {
  let cache = caches.get(services.sync);
  if (!cache) {
    const created = new ListCache();
    const clear = () => created.clear();
    services.sync.on('dirty', clear);
    services.sync.on('indexed', clear);
    caches.set(services.sync, created);
    cache = created;
  }
  return cache;
}
