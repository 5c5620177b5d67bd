interface Entry {
  value: unknown;
  until: number;
}

/**
 * Values remembered for `ttlMs` each, at most `maxEntries` of them (past the bound, the oldest set
 * go first). `shared` and `sharedMany` remember a read as a promise at once, so the callers
 * arriving while it runs share it.
 */
export class ExpiringCache {
  private entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
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

  /**
   * The values of `ids` (undefined: none) from one table remembered under `key`: when the table
   * lacks one of them, it is read again, with them and up to `maxKnown` of the IDs it held, so
   * that requests asking for different IDs cost about one read per table per `ttlMs`, not one
   * lookup per ID. Requests arriving while a read runs share it; a failed read is forgotten. No
   * IDs, no read.
   */
  async sharedTable<K, V>(
    key: string,
    ids: ReadonlySet<K>,
    readMany: (ids: K[]) => Promise<Map<K, V>>,
    maxKnown: number,
  ): Promise<ReadonlyMap<K, V | undefined>> {
    type Table = Map<K, V | undefined>;
    if (ids.size === 0) return new Map();
    const fresh = this.get<Promise<Table>>(key);
    const table = fresh && (await fresh.catch(() => null));
    if (table && [...ids].every((id) => table.has(id))) return table;
    // With nothing remembered, nothing above awaited: the read is remembered before a concurrent request looks.
    const previous = this.last<Promise<Table>>(key);
    const read = (async (): Promise<Table> => {
      const known = previous ? [...((await previous.catch(() => null))?.keys() ?? [])] : [];
      const wanted = [...new Set([...ids, ...known.slice(0, maxKnown)])];
      const found = await readMany(wanted);
      return new Map(wanted.map((id) => [id, found.get(id)]));
    })();
    this.set(key, read);
    read.catch(() => this.last(key) === read && this.delete(key));
    return read;
  }

  clear(): void {
    this.entries = new Map();
  }
}
